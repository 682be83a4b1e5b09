// ua-parser-js 1.x (MIT) ships no types of its own: what shared/domain/device.ts reads of it.
declare module 'ua-parser-js' {
  export interface IResult {
    browser: { name?: string | undefined };
    os: { name?: string | undefined };
    device: { type?: string | undefined };
  }
  export function UAParser(userAgent?: string): IResult;
}
