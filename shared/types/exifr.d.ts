// exifr's ESM build, imported by path: its package.json has no "exports", Node would load the UMD
// build (whose named exports it cannot see) and esbuild the ESM one (whose default export lacks
// `sidecar`). Importing the ESM file itself gives every runtime the same module.
declare module 'exifr/dist/full.esm.mjs' {
  export * from 'exifr';
}
