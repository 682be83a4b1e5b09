import type { IncomingMessage } from 'node:http';

/** A request's body, or `too-large` as soon as it passes `limit` (the rest is drained, never held). */
export const readBody = (req: IncomingMessage, limit: number): Promise<Buffer | 'too-large'> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        resolve('too-large');
        req.resume();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
