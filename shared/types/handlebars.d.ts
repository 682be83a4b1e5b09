// Handlebars' one-file build, imported by path: one file to ship beside the bundle of the route
// that loads it (infra/cdk/bundling.ts, lazyModules), where `handlebars` itself is 33 files.
declare module 'handlebars/dist/handlebars.min.js' {
  import Handlebars from 'handlebars';
  export default Handlebars;
}
