function other() {
  return 1;
}
export function build(opts) {
  return 2;
}
