// Vite's `?raw` imports: the sample transcript is bundled so replay works offline.
declare module '*?raw' {
  const text: string;
  export default text;
}
