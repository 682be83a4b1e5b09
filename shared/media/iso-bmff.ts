/**
 * Boxes of an ISO base media file (ISO/IEC 14496-12: MP4, QuickTime, HEIF/HEIC, AVIF): each a
 * 32-bit size (1: a 64-bit size follows; 0: to the end) and a four-character type. Reads stop at
 * the first box that does not fit, so a file cut short yields what it has.
 */
export interface Box {
  type: string;
  /** Start of the payload and end of the box, in the buffer. */
  start: number;
  end: number;
}

export const boxesIn = (data: Buffer, from: number, to: number): Box[] => {
  const boxes: Box[] = [];
  let at = from;
  while (at + 8 <= to) {
    let size = data.readUInt32BE(at);
    const type = data.toString('latin1', at + 4, at + 8);
    let header = 8;
    if (size === 1) {
      if (at + 16 > to) break;
      size = Number(data.readBigUInt64BE(at + 8));
      header = 16;
    } else if (size === 0) {
      size = to - at;
    }
    if (size < header || at + size > to) break;
    boxes.push({ type, start: at + header, end: at + size });
    at += size;
  }
  return boxes;
};

export const child = (data: Buffer, box: Box | undefined, type: string, skip = 0): Box | undefined =>
  box ? boxesIn(data, box.start + skip, box.end).find((each) => each.type === type) : undefined;

export const children = (data: Buffer, box: Box | undefined, type: string): Box[] =>
  box ? boxesIn(data, box.start, box.end).filter((each) => each.type === type) : [];
