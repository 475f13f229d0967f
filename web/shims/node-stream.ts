// memfs declares its stream classes at load time; Sandpit never uses them in the browser.
class Unsupported {
  constructor() {
    throw new Error('Node streams are not available in the browser build of Sandpit');
  }
}
export const Readable = Unsupported;
export const Writable = Unsupported;
export default { Readable, Writable };
