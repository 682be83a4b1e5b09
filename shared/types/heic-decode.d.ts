/** heic-decode 2 (libheif in WebAssembly) ships no types: the one call used here (shared/media/images.ts). */
declare module 'heic-decode' {
  interface DecodedImage {
    width: number;
    height: number;
    /** RGBA, 8 bits per channel, rows top to bottom, the file's rotation and mirroring applied. */
    data: Uint8ClampedArray;
  }
  function decode(input: { buffer: Uint8Array }): Promise<DecodedImage>;
  export default decode;
}
