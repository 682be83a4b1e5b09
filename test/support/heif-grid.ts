/**
 * A grid HEIF, as iPhones write every photo (ISO/IEC 23008-12: a `grid` item whose `dimg`
 * references are HEVC tiles), for the tests of the tiled decoder (shared/media/heic.ts). No
 * package in the npm registry encodes HEVC and Debian's heif-enc 1.15 writes no grids, so the
 * tiles come from one-image HEICs heif-enc wrote (the bench) or from the grid of the fixture
 * test/fixtures/grid.heic, which this wrote (test/fixtures/README.md).
 */
import { itemExtent } from '#shared/media/heif.ts';
import { boxesIn, child } from '#shared/media/iso-bmff.ts';

const box = (type: string, ...payload: Buffer[]): Buffer => {
  const body = Buffer.concat(payload);
  const header = Buffer.alloc(8);
  header.writeUInt32BE(8 + body.length);
  header.write(type, 4, 'latin1');
  return Buffer.concat([header, body]);
};
const fullBox = (type: string, version: number, flags: number, ...payload: Buffer[]): Buffer => {
  const head = Buffer.alloc(4);
  head.writeUInt32BE(((version & 0xff) << 24) | (flags & 0xffffff));
  return box(type, head, ...payload);
};
const u8 = (value: number) => Buffer.from([value]);
const u16 = (value: number) => {
  const out = Buffer.alloc(2);
  out.writeUInt16BE(value);
  return out;
};
const u32 = (value: number) => {
  const out = Buffer.alloc(4);
  out.writeUInt32BE(value);
  return out;
};

export interface CodedImage {
  /** The image's `hvcC` box, whole. */
  hvcC: Buffer;
  /** Its coded bytes. */
  data: Buffer;
}

/**
 * The coded images of a HEIC: its primary image when that is one, or the tiles of its grid (in
 * row order). Enough of the format for the files heif-enc and `gridHeif` write.
 */
export const codedImages = (file: Buffer): CodedImage[] => {
  const meta = boxesIn(file, 0, file.length).find((each) => each.type === 'meta');
  const pitm = child(file, meta, 'pitm', 4);
  const iloc = child(file, meta, 'iloc', 4);
  const iprp = child(file, meta, 'iprp', 4);
  const ipco = child(file, iprp, 'ipco');
  const ipma = child(file, iprp, 'ipma');
  if (!pitm || !iloc || !ipco || !ipma) throw new Error('not a HEIC');
  const properties = boxesIn(file, ipco.start, ipco.end);
  // ipma: each item's properties, 1-based indexes into ipco (7 bits, or 15 with flag 1).
  const wide = (file.readUInt32BE(ipma.start) & 1) === 1;
  const longIds = file.readUInt8(ipma.start) >= 1;
  const associated = new Map<number, number[]>();
  let at = ipma.start + 8;
  for (let entry = file.readUInt32BE(ipma.start + 4); entry > 0; entry--) {
    const id = longIds ? file.readUInt32BE(at) : file.readUInt16BE(at);
    at += longIds ? 4 : 2;
    const indexes: number[] = [];
    for (let count = file.readUInt8(at++); count > 0; count--) {
      indexes.push(wide ? file.readUInt16BE(at) & 0x7fff : file.readUInt8(at) & 0x7f);
      at += wide ? 2 : 1;
    }
    associated.set(id, indexes);
  }
  const imageOf = (id: number): CodedImage => {
    const hvcC = (associated.get(id) ?? []).map((index) => properties[index - 1]).find((box) => box?.type === 'hvcC');
    const extent = itemExtent(file, iloc.start, id);
    if (!hvcC || !extent) throw new Error(`item ${id} is no HEVC image in the file`);
    return { hvcC: file.subarray(hvcC.start - 8, hvcC.end), data: file.subarray(extent.offset, extent.offset + extent.length) };
  };
  const primary = file.readUInt8(pitm.start) === 0 ? file.readUInt16BE(pitm.start + 4) : file.readUInt32BE(pitm.start + 4);
  const iref = child(file, meta, 'iref', 4);
  const dimg =
    iref && boxesIn(file, iref.start + 4, iref.end).find((each) => each.type === 'dimg' && file.readUInt16BE(each.start) === primary);
  if (!dimg) return [imageOf(primary)];
  return Array.from({ length: file.readUInt16BE(dimg.start + 2) }, (_, index) => imageOf(file.readUInt16BE(dimg.start + 4 + index * 2)));
};

export interface GridOptions {
  columns: number;
  rows: number;
  /** Each tile's size (all alike) and the image's, no larger than the tiles cover. */
  tileWidth: number;
  tileHeight: number;
  width: number;
  height: number;
  /** HEIF's own rotation, counter-clockwise in quarter turns (`irot`), and mirroring (`imir`: 0 vertical axis, 1 horizontal). */
  rotation?: 0 | 1 | 2 | 3;
  mirror?: 0 | 1;
}

/** A grid HEIF of `tiles` (row by row), as iPhones lay them out. */
export const gridHeif = (coded: readonly CodedImage[], options: GridOptions): Buffer => {
  if (coded.length !== options.columns * options.rows) throw new Error('one tile per cell');
  const codecs = [...new Map(coded.map((tile) => [tile.hvcC.toString('hex'), tile.hvcC])).values()];
  const ispe = (width: number, height: number) => fullBox('ispe', 0, 0, u32(width), u32(height));
  // ipco: the codecs, the tiles' size, the grid's size, then the transformations (1-based indexes).
  const properties = [
    ...codecs,
    ispe(options.tileWidth, options.tileHeight),
    ispe(options.width, options.height),
    ...(options.rotation ? [box('irot', u8(options.rotation))] : []),
    ...(options.mirror !== undefined ? [box('imir', u8(options.mirror))] : []),
  ];
  const tileSize = codecs.length + 1;
  const gridSize = codecs.length + 2;
  const transforms = properties.slice(gridSize).map((_, index) => gridSize + 1 + index);
  const gridId = 1;
  const tileIds = coded.map((_, index) => index + 2);
  const descriptor = Buffer.concat([u8(0), u8(0), u8(options.rows - 1), u8(options.columns - 1), u16(options.width), u16(options.height)]);

  const meta = (dataStart: number): Buffer => {
    const infe = (id: number, type: string, hidden: boolean) =>
      fullBox('infe', 2, hidden ? 1 : 0, u16(id), u16(0), Buffer.from(type, 'latin1'), u8(0));
    const association = (id: number, indexes: number[]) =>
      Buffer.concat([u16(id), u8(indexes.length), ...indexes.map((index) => u8(0x80 | index))]);
    const ipma = fullBox(
      'ipma',
      0,
      0,
      u32(1 + coded.length),
      association(gridId, [gridSize, ...transforms]),
      ...coded.map((tile, index) =>
        association(tileIds[index] ?? 0, [codecs.indexOf(codecs.find((codec) => codec.equals(tile.hvcC)) ?? tile.hvcC) + 1, tileSize]),
      ),
    );
    let offset = dataStart;
    const locations = coded.map((tile, index) => {
      const entry = Buffer.concat([u16(tileIds[index] ?? 0), u16(0), u16(0), u16(1), u32(offset), u32(tile.data.length)]);
      offset += tile.data.length;
      return entry;
    });
    return fullBox(
      'meta',
      0,
      0,
      fullBox('hdlr', 0, 0, u32(0), Buffer.from('pict', 'latin1'), Buffer.alloc(12), u8(0)),
      fullBox('pitm', 0, 0, u16(gridId)),
      fullBox('iinf', 0, 0, u16(1 + coded.length), infe(gridId, 'grid', false), ...tileIds.map((id) => infe(id, 'hvc1', true))),
      fullBox('iref', 0, 0, box('dimg', u16(gridId), u16(tileIds.length), ...tileIds.map(u16))),
      box('iprp', box('ipco', ...properties), ipma),
      box('idat', descriptor),
      // iloc version 1: offsets and lengths of 4 bytes, no base offset; the grid's descriptor is in idat (method 1).
      fullBox(
        'iloc',
        1,
        0,
        u8(0x44),
        u8(0x00),
        u16(1 + coded.length),
        Buffer.concat([u16(gridId), u16(1), u16(0), u16(1), u32(0), u32(descriptor.length)]),
        ...locations,
      ),
    );
  };
  const ftyp = box('ftyp', Buffer.from('heic', 'latin1'), u32(0), Buffer.from('mif1heic', 'latin1'));
  const size = meta(0).length;
  const data = Buffer.concat(coded.map((tile) => tile.data));
  return Buffer.concat([ftyp, meta(ftyp.length + size + 8), box('mdat', data)]);
};
