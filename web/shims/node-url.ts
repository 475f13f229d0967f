export const URL = globalThis.URL;
export default { URL };
