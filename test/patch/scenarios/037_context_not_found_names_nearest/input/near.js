// top
const a = 1;
const b = 22;
const c = 3;
