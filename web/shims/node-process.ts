// memfs asks for `process` when the page has none; a browser workspace lives at '/'.
const browserProcess = {
  cwd: () => '/',
  env: {} as Record<string, string>,
  platform: 'browser',
  emitWarning: (message: string) => console.warn(message),
};
export default browserProcess;
export const { cwd, env, platform, emitWarning } = browserProcess;
