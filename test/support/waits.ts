import { hangGuard } from './timeouts.ts';

/**
 * Reads `read` until `done` says what it answered is what the test waits for (something made in
 * the background: a preview, OCR lines, an encoded video, faces), every `everyMs`, and returns the
 * last answer: the test asserts on it, so a wait that reaches its hang guard fails on what it saw.
 * `done` may assert too (what every answer before the awaited one must be).
 */
export const pollUntil = async <T>(read: () => Promise<T>, done: (value: T) => boolean, everyMs = 250): Promise<T> => {
  const deadline = Date.now() + hangGuard.wait;
  let value = await read();
  while (!done(value) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, everyMs));
    value = await read();
  }
  return value;
};
