/**
 * Test photos built from scratch: a real, decodable JPEG (jpeg-js) with the metadata segments a
 * camera and a photo manager write — EXIF (TIFF IFDs: camera, exposure, dates, GPS), XMP (location,
 * projection, MWG and Microsoft face regions) and IPTC (location) — plus standalone XMP sidecars.
 * Every value is chosen by the test, so a test can compare what the API reports with what it wrote.
 */
import { crc32 as zlibCrc32 } from 'node:zlib';
import jpeg from 'jpeg-js';

export interface FaceRegion {
  name?: string;
  /** Normalised, top-left based (the test's view); each writer converts to its own convention. */
  x: number;
  y: number;
  w: number;
  h: number;
  /** MWG region type; default `Face`. */
  type?: string;
}

export interface PhotoSpec {
  width?: number;
  height?: number;
  /** RGB of the whole picture. */
  color?: [number, number, number];
  /** Random pixels instead of one colour: a file that barely compresses (size tests). */
  noise?: boolean;
  /** The colour of the stored pixel at (x, y), where it is not `color` (a patch at a known place). */
  paint?: (x: number, y: number) => [number, number, number] | undefined;
  /** Written as a JPEG comment; defaults to a counter, so every generated file is distinct. */
  comment?: string;
  make?: string;
  model?: string;
  lensModel?: string;
  /** Seconds, e.g. 0.004 for 1/250. */
  exposureTime?: number;
  fNumber?: number;
  focalLength?: number;
  iso?: number;
  orientation?: number;
  description?: string;
  /** EXIF wall-clock form `YYYY:MM:DD HH:mm:ss`. */
  dateTimeOriginal?: string;
  /** `+02:00` style. */
  offsetTimeOriginal?: string;
  /** EXIF SubSecTimeOriginal: the date's fraction of a second, as digits (`348`). */
  subSecTimeOriginal?: string;
  modifyDate?: string;
  latitude?: number;
  longitude?: number;
  /** Written to XMP (photoshop:City...) unless `iptcLocation` is set. */
  city?: string;
  state?: string;
  country?: string;
  /** The country's ISO code: XMP Iptc4xmpCore:CountryCode, or IPTC 2:100 with `iptcLocation`. */
  countryCode?: string;
  iptcLocation?: boolean;
  projectionType?: string;
  /** MWG regions (mwg-rs), with AppliedToDimensions = the image size (or `appliedToDimensions`). */
  mwgFaces?: FaceRegion[];
  appliedToDimensions?: { width: number; height: number };
  /** Microsoft Photo regions (MP:RegionInfo). */
  microsoftFaces?: FaceRegion[];
  /** EXIF CreateDate (DateTimeDigitized), `YYYY:MM:DD HH:mm:ss`. */
  createDate?: string;
  /** EXIF OffsetTimeDigitized, `+02:00` style. */
  offsetTimeDigitized?: string;
  /** EXIF GPS date and time (UTC): GPSDateStamp `YYYY:MM:DD` and GPSTimeStamp `HH:mm:ss`. */
  gpsDateStamp?: string;
  gpsTimeStamp?: string;
  /**
   * Any other EXIF entries, as a camera or phone wrote them (quirks included: rationals with a
   * zero denominator, counts that do not fit): `values` are raw (a rational is numerator then
   * denominator). An entry of the same tag replaces the one the fields above would write.
   */
  rawExif?: RawExifEntry[];
  /**
   * XMP properties written as they are (`exif:GPSTimeStamp`, `xmp:CreateDate`…), in the file's
   * XMP (or the sidecar's): a string is an attribute, a list a `rdf:Bag` (`rdf:Seq` for
   * `digiKam:TagsList`).
   */
  xmp?: Record<string, string | string[]>;
  /** digiKam's keywords (`digiKam:TagsList`, levels joined by `/`). */
  tagsList?: string[];
  /** Lightroom's keywords (`lr:hierarchicalSubject`, levels joined by `|`). */
  hierarchicalSubject?: string[];
  /** XMP `dc:subject` (a flat keyword list). */
  subject?: string[];
  /** IPTC Keywords (2:25), as Picasa writes them. */
  keywords?: string[];
  /** IPTC DateCreated (2:55, `CCYYMMDD`) and TimeCreated (2:60, `HHMMSS±HHMM`). */
  iptcDateCreated?: string;
  iptcTimeCreated?: string;
}

/** An EXIF entry as written: type 1 BYTE, 2 ASCII, 3 SHORT, 4 LONG, 5 RATIONAL, 9 SLONG, 10 SRATIONAL. */
export interface RawExifEntry {
  ifd: 'ifd0' | 'exif' | 'gps';
  tag: number;
  type: 1 | 2 | 3 | 4 | 5 | 9 | 10;
  values: number[] | string;
}

// --- TIFF / EXIF -------------------------------------------------------------------------------

type Entry = { tag: number; type: 1 | 2 | 3 | 4 | 5 | 9 | 10; values: number[] | string };

// Bytes of one value's component (a rational's numerator or denominator: 4).
const componentSize = { 1: 1, 2: 1, 3: 2, 4: 4, 5: 4, 9: 4, 10: 4 } as const;

const rational = (value: number): [number, number] => {
  const denominator = 10_000;
  return [Math.round(value * denominator), denominator];
};

/** One IFD at `offset` (from the TIFF header), big-endian; returns its bytes. */
const writeIfd = (entries: Entry[], offset: number): Buffer => {
  const sorted = [...entries].sort((a, b) => a.tag - b.tag);
  const headerSize = 2 + sorted.length * 12 + 4;
  const table = Buffer.alloc(headerSize);
  const data: Buffer[] = [];
  let dataOffset = offset + headerSize;
  table.writeUInt16BE(sorted.length, 0);
  sorted.forEach((entry, index) => {
    const at = 2 + index * 12;
    let payload: Buffer;
    let count: number;
    if (entry.type === 2) {
      payload = Buffer.from(`${String(entry.values)}\0`, 'latin1');
      count = payload.length;
    } else {
      const values = entry.values as number[];
      count = entry.type === 5 || entry.type === 10 ? values.length / 2 : values.length;
      const size = componentSize[entry.type];
      payload = Buffer.alloc(values.length * size);
      values.forEach((value, i) => {
        if (size === 1) payload.writeUInt8(value, i);
        else if (size === 2) payload.writeUInt16BE(value, i * 2);
        else if (entry.type === 9 || entry.type === 10) payload.writeInt32BE(value, i * 4);
        else payload.writeUInt32BE(value, i * 4);
      });
    }
    table.writeUInt16BE(entry.tag, at);
    table.writeUInt16BE(entry.type, at + 2);
    table.writeUInt32BE(count, at + 4);
    if (payload.length <= 4) payload.copy(table, at + 8);
    else {
      table.writeUInt32BE(dataOffset, at + 8);
      const padded = payload.length % 2 ? Buffer.concat([payload, Buffer.alloc(1)]) : payload;
      data.push(padded);
      dataOffset += padded.length;
    }
  });
  return Buffer.concat([table, ...data]);
};

/** The EXIF of `spec` as a TIFF block (big-endian header, IFD0, Exif and GPS IFDs), or undefined when it has none. */
export const exifTiff = (spec: PhotoSpec, width = spec.width ?? 64, height = spec.height ?? 48): Buffer | undefined => {
  const ifd0: Entry[] = [];
  const exif: Entry[] = [];
  const gps: Entry[] = [];
  if (spec.make) ifd0.push({ tag: 0x010f, type: 2, values: spec.make });
  if (spec.model) ifd0.push({ tag: 0x0110, type: 2, values: spec.model });
  if (spec.description) ifd0.push({ tag: 0x010e, type: 2, values: spec.description });
  if (spec.orientation) ifd0.push({ tag: 0x0112, type: 3, values: [spec.orientation] });
  if (spec.modifyDate) ifd0.push({ tag: 0x0132, type: 2, values: spec.modifyDate });
  if (spec.exposureTime) exif.push({ tag: 0x829a, type: 5, values: rational(spec.exposureTime) });
  if (spec.fNumber) exif.push({ tag: 0x829d, type: 5, values: rational(spec.fNumber) });
  if (spec.iso) exif.push({ tag: 0x8827, type: 3, values: [spec.iso] });
  if (spec.dateTimeOriginal) exif.push({ tag: 0x9003, type: 2, values: spec.dateTimeOriginal });
  if (spec.createDate) exif.push({ tag: 0x9004, type: 2, values: spec.createDate });
  if (spec.offsetTimeOriginal) exif.push({ tag: 0x9011, type: 2, values: spec.offsetTimeOriginal });
  if (spec.offsetTimeDigitized) exif.push({ tag: 0x9012, type: 2, values: spec.offsetTimeDigitized });
  if (spec.subSecTimeOriginal) exif.push({ tag: 0x9291, type: 2, values: spec.subSecTimeOriginal });
  if (spec.focalLength) exif.push({ tag: 0x920a, type: 5, values: rational(spec.focalLength) });
  if (spec.lensModel) exif.push({ tag: 0xa434, type: 2, values: spec.lensModel });
  if (exif.length > 0) {
    exif.push({ tag: 0xa002, type: 4, values: [width] }, { tag: 0xa003, type: 4, values: [height] });
  }
  if (spec.latitude !== undefined && spec.longitude !== undefined) {
    const dms = (value: number): number[] => {
      const abs = Math.abs(value);
      const degrees = Math.floor(abs);
      const minutes = Math.floor((abs - degrees) * 60);
      const seconds = (abs - degrees - minutes / 60) * 3600;
      return [degrees, 1, minutes, 1, ...rational(seconds)];
    };
    gps.push(
      { tag: 0x0001, type: 2, values: spec.latitude < 0 ? 'S' : 'N' },
      { tag: 0x0002, type: 5, values: dms(spec.latitude) },
      { tag: 0x0003, type: 2, values: spec.longitude < 0 ? 'W' : 'E' },
      { tag: 0x0004, type: 5, values: dms(spec.longitude) },
    );
  }
  if (spec.gpsTimeStamp) {
    const [h = 0, m = 0, s = 0] = spec.gpsTimeStamp.split(':').map(Number);
    gps.push({ tag: 0x0007, type: 5, values: [h, 1, m, 1, ...rational(s)] });
  }
  if (spec.gpsDateStamp) gps.push({ tag: 0x001d, type: 2, values: spec.gpsDateStamp });
  for (const raw of spec.rawExif ?? []) {
    const ifd = { ifd0, exif, gps }[raw.ifd];
    const same = ifd.findIndex((entry) => entry.tag === raw.tag);
    if (same >= 0) ifd.splice(same, 1);
    ifd.push({ tag: raw.tag, type: raw.type, values: raw.values });
  }
  if (ifd0.length + exif.length + gps.length === 0) return undefined;

  // Pointers are placeholders first, so IFD0's size (and so every later offset) is known.
  const pointers: Entry[] = [];
  if (exif.length) pointers.push({ tag: 0x8769, type: 4, values: [0] });
  if (gps.length) pointers.push({ tag: 0x8825, type: 4, values: [0] });
  const ifd0Size = writeIfd([...ifd0, ...pointers], 8).length;
  const exifOffset = 8 + ifd0Size;
  const exifIfd = exif.length ? writeIfd(exif, exifOffset) : Buffer.alloc(0);
  const gpsOffset = exifOffset + exifIfd.length;
  const gpsIfd = gps.length ? writeIfd(gps, gpsOffset) : Buffer.alloc(0);
  for (const pointer of pointers) pointer.values = [pointer.tag === 0x8769 ? exifOffset : gpsOffset];
  const tiffHeader = Buffer.from([0x4d, 0x4d, 0x00, 0x2a, 0x00, 0x00, 0x00, 0x08]);
  return Buffer.concat([tiffHeader, writeIfd([...ifd0, ...pointers], 8), exifIfd, gpsIfd]);
};

/** A JPEG's APP1 EXIF payload: `Exif\0\0` and the TIFF block. */
const exifSegment = (spec: PhotoSpec, width: number, height: number): Buffer | undefined => {
  const tiff = exifTiff(spec, width, height);
  return tiff ? Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), tiff]) : undefined;
};

// --- XMP ---------------------------------------------------------------------------------------

const escapeXml = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const round = (value: number): string => String(Math.round(value * 1e6) / 1e6);

/** An XMP packet (the body of an APP1 XMP segment or of a sidecar file). */
export const xmpPacket = (spec: PhotoSpec, sidecar: boolean): string => {
  const width = spec.width ?? 64;
  const height = spec.height ?? 48;
  const attributes: string[] = [];
  const children: string[] = [];
  if (spec.city && !spec.iptcLocation) attributes.push(`photoshop:City="${escapeXml(spec.city)}"`);
  if (spec.state && !spec.iptcLocation) attributes.push(`photoshop:State="${escapeXml(spec.state)}"`);
  if (spec.country && !spec.iptcLocation) attributes.push(`photoshop:Country="${escapeXml(spec.country)}"`);
  if (spec.countryCode && !spec.iptcLocation) attributes.push(`Iptc4xmpCore:CountryCode="${escapeXml(spec.countryCode)}"`);
  if (spec.projectionType) attributes.push(`GPano:ProjectionType="${escapeXml(spec.projectionType)}"`);
  if (spec.mwgFaces?.length) {
    const regions = spec.mwgFaces
      .map(
        (face) => `
       <rdf:li rdf:parseType="Resource">
        <mwg-rs:Area stArea:x="${round(face.x + face.w / 2)}" stArea:y="${round(face.y + face.h / 2)}" stArea:w="${round(face.w)}" stArea:h="${round(face.h)}" stArea:unit="normalized"/>
        <mwg-rs:Type>${face.type ?? 'Face'}</mwg-rs:Type>${
          face.name === undefined
            ? ''
            : `
        <mwg-rs:Name>${escapeXml(face.name)}</mwg-rs:Name>`
        }
       </rdf:li>`,
      )
      .join('');
    children.push(`
   <mwg-rs:Regions rdf:parseType="Resource">
    <mwg-rs:AppliedToDimensions stDim:w="${spec.appliedToDimensions?.width ?? width}" stDim:h="${spec.appliedToDimensions?.height ?? height}" stDim:unit="pixel"/>
    <mwg-rs:RegionList>
     <rdf:Bag>${regions}
     </rdf:Bag>
    </mwg-rs:RegionList>
   </mwg-rs:Regions>`);
  }
  if (spec.microsoftFaces?.length) {
    const regions = spec.microsoftFaces
      .map(
        (face) => `
       <rdf:li MPReg:Rectangle="${round(face.x)}, ${round(face.y)}, ${round(face.w)}, ${round(face.h)}"${face.name === undefined ? '' : ` MPReg:PersonDisplayName="${escapeXml(face.name)}"`}/>`,
      )
      .join('');
    children.push(`
   <MP:RegionInfo rdf:parseType="Resource">
    <MPRI:Regions>
     <rdf:Bag>${regions}
     </rdf:Bag>
    </MPRI:Regions>
   </MP:RegionInfo>`);
  }
  const list = (property: string, values: readonly string[], kind = 'Bag') =>
    children.push(`
   <${property}><rdf:${kind}>${values.map((value) => `<rdf:li>${escapeXml(value)}</rdf:li>`).join('')}</rdf:${kind}></${property}>`);
  if (spec.tagsList) list('digiKam:TagsList', spec.tagsList, 'Seq');
  if (spec.hierarchicalSubject) list('lr:hierarchicalSubject', spec.hierarchicalSubject);
  if (spec.subject) list('dc:subject', spec.subject);
  for (const [property, value] of Object.entries(spec.xmp ?? {})) {
    if (typeof value === 'string') attributes.push(`${property}="${escapeXml(value)}"`);
    else list(property, value);
  }
  if (sidecar && spec.description) {
    // A sidecar-style description (dc:description is a language alternative).
    children.push(`
   <dc:description><rdf:Alt><rdf:li xml:lang="x-default">${escapeXml(spec.description)}</rdf:li></rdf:Alt></dc:description>`);
  }
  if (sidecar && spec.dateTimeOriginal) {
    // Sidecars carry the date as XMP (photo managers write exif:DateTimeOriginal in ISO form).
    const iso = spec.dateTimeOriginal.replace(/^(\d{4}):(\d{2}):(\d{2}) /, '$1-$2-$3T') + (spec.offsetTimeOriginal ?? '');
    attributes.push(`exif:DateTimeOriginal="${iso}"`);
  }
  return `<?xpacket begin="\uFEFF" id="W5M0MpCehiHzreSzNTczkc9d"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/">
 <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
  <rdf:Description rdf:about=""
    xmlns:photoshop="http://ns.adobe.com/photoshop/1.0/"
    xmlns:Iptc4xmpCore="http://iptc.org/std/Iptc4xmpCore/1.0/xmlns/"
    xmlns:GPano="http://ns.google.com/photos/1.0/panorama/"
    xmlns:exif="http://ns.adobe.com/exif/1.0/"
    xmlns:dc="http://purl.org/dc/elements/1.1/"
    xmlns:xmp="http://ns.adobe.com/xap/1.0/"
    xmlns:digiKam="http://www.digikam.org/ns/1.0/"
    xmlns:lr="http://ns.adobe.com/lightroom/1.0/"
    xmlns:mwg-rs="http://www.metadataworkinggroup.com/schemas/regions/"
    xmlns:stArea="http://ns.adobe.com/xmp/sType/Area#"
    xmlns:stDim="http://ns.adobe.com/xap/1.0/sType/Dimensions#"
    xmlns:MP="http://ns.microsoft.com/photo/1.2/"
    xmlns:MPRI="http://ns.microsoft.com/photo/1.2/t/RegionInfo#"
    xmlns:MPReg="http://ns.microsoft.com/photo/1.2/t/Region#"${attributes.length ? `\n    ${attributes.join('\n    ')}` : ''}>${children.join('')}
  </rdf:Description>
 </rdf:RDF>
</x:xmpmeta>
<?xpacket end="w"?>`;
};

const hasXmp = (spec: PhotoSpec): boolean =>
  Boolean(
    ((spec.city || spec.state || spec.country || spec.countryCode) && !spec.iptcLocation) ||
      spec.projectionType ||
      spec.mwgFaces?.length ||
      spec.microsoftFaces?.length ||
      spec.tagsList ||
      spec.hierarchicalSubject ||
      spec.subject ||
      (spec.xmp && Object.keys(spec.xmp).length > 0),
  );

// --- IPTC (Photoshop APP13) ----------------------------------------------------------------------

const iptcSegment = (spec: PhotoSpec): Buffer | undefined => {
  if (!spec.iptcLocation && !spec.keywords && !spec.iptcDateCreated) return undefined;
  const records: Buffer[] = [];
  const dataset = (record: number, number: number, value: Buffer): void => {
    const header = Buffer.from([0x1c, record, number, 0, 0]);
    header.writeUInt16BE(value.length, 3);
    records.push(header, value);
  };
  // 1:90 CodedCharacterSet = ESC % G: the text is UTF-8.
  dataset(1, 90, Buffer.from([0x1b, 0x25, 0x47]));
  for (const keyword of spec.keywords ?? []) dataset(2, 25, Buffer.from(keyword, 'utf8'));
  if (spec.iptcDateCreated) dataset(2, 55, Buffer.from(spec.iptcDateCreated, 'latin1'));
  if (spec.iptcTimeCreated) dataset(2, 60, Buffer.from(spec.iptcTimeCreated, 'latin1'));
  if (spec.iptcLocation) {
    for (const [number, value] of [
      [90, spec.city],
      [95, spec.state],
      [100, spec.countryCode],
      [101, spec.country],
    ] as const) {
      // The country code only when given (the files before it had none).
      if (number !== 100 || value !== undefined) dataset(2, number, Buffer.from(value ?? '', 'utf8'));
    }
  }
  const iim = Buffer.concat(records);
  const resource = Buffer.concat([
    Buffer.from('8BIM', 'latin1'),
    Buffer.from([0x04, 0x04, 0, 0]), // resource 0x0404 (IPTC-NAA), empty Pascal name padded
    Buffer.alloc(4),
    iim,
    iim.length % 2 ? Buffer.alloc(1) : Buffer.alloc(0),
  ]);
  resource.writeUInt32BE(iim.length, 8);
  return Buffer.concat([Buffer.from('Photoshop 3.0\0', 'latin1'), resource]);
};

// --- JPEG --------------------------------------------------------------------------------------

const segment = (marker: number, payload: Buffer): Buffer => {
  const header = Buffer.from([0xff, marker, 0, 0]);
  header.writeUInt16BE(payload.length + 2, 2);
  return Buffer.concat([header, payload]);
};

let generated = 0;

/** A decodable JPEG of the given size and colour, with the metadata of `spec`. */
export const makeJpeg = (spec: PhotoSpec = {}): Buffer => {
  const width = spec.width ?? 64;
  const height = spec.height ?? 48;
  const [r, g, b] = spec.color ?? [200, 120, 40];
  const pixels = Buffer.alloc(width * height * 4);
  for (let i = 0; i < width * height; i++) {
    const painted = spec.paint?.(i % width, Math.floor(i / width));
    pixels.set(spec.noise ? [Math.random() * 256, Math.random() * 256, Math.random() * 256, 255] : [...(painted ?? [r, g, b]), 255], i * 4);
  }
  const encoded = jpeg.encode({ data: pixels, width, height }, 90).data;
  const segments: Buffer[] = [];
  const exif = exifSegment(spec, width, height);
  if (exif) segments.push(segment(0xe1, exif));
  if (hasXmp(spec)) {
    const packet = xmpPacket({ ...spec, width, height }, false);
    segments.push(segment(0xe1, Buffer.concat([Buffer.from('http://ns.adobe.com/xap/1.0/\0', 'latin1'), Buffer.from(packet, 'utf8')])));
  }
  const iptc = iptcSegment(spec);
  if (iptc) segments.push(segment(0xed, iptc));
  segments.push(segment(0xfe, Buffer.from(spec.comment ?? `test photo ${++generated}`, 'utf8')));
  // SOI, then our segments, then the encoder's own (JFIF APP0 onwards).
  return Buffer.concat([encoded.subarray(0, 2), ...segments, encoded.subarray(2)]);
};

/** A sidecar `.xmp` file with the given values (dates as XMP, description as dc:description). */
export const makeSidecar = (spec: PhotoSpec): Buffer => Buffer.from(xmpPacket(spec, true), 'utf8');

// --- Other formats -------------------------------------------------------------------------------

/** The formats `makeImage` writes, each with the EXIF and XMP of its spec where the format keeps them. */
export type ImageFormat = 'webp' | 'avif' | 'jxl' | 'png' | 'tiff' | 'dng' | 'gif';

let vipsModule: Promise<any> | undefined;
// wasm-vips (libvips' own WebP, AVIF, JPEG XL, PNG and GIF writers), loaded only by the tests that make these.
const vips = () => (vipsModule ??= import('wasm-vips').then((module) => module.default()));

const pngChunk = (type: string, data: Buffer): Buffer => {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlibCrc32(body));
  return Buffer.concat([length, body, crc]);
};

/**
 * An image of `format` with the metadata of `spec`: libvips writes WebP (its `EXIF` and `XMP `
 * chunks), AVIF (HEIF `Exif` and `mime` items), JPEG XL (its container, the boxes Brotli-compressed
 * in `brob` boxes as libjxl writes them) and PNG (`eXIf`; the XMP is added as the `iTXt` chunk
 * `XML:com.adobe.xmp`); a GIF gets its XMP as Adobe's application extension; a TIFF (or DNG,
 * with its DNGVersion) is written here: IFD0 with one uncompressed RGB strip, the EXIF and GPS
 * IFDs, and the XMP in IFD0's tag 700.
 */
export const makeImage = async (format: ImageFormat, spec: PhotoSpec = {}): Promise<Buffer> => {
  const width = spec.width ?? 64;
  const height = spec.height ?? 48;
  const [r, g, b] = spec.color ?? [200, 120, 40];
  const packet = hasXmp(spec) ? Buffer.from(xmpPacket({ ...spec, width, height }, false), 'utf8') : undefined;
  if (format === 'tiff' || format === 'dng') {
    const rgb = Buffer.alloc(width * height * 3);
    for (let i = 0; i < width * height; i++) rgb.set([r, g, b], i * 3);
    const structure: RawExifEntry[] = [
      { ifd: 'ifd0', tag: 256, type: 4, values: [width] },
      { ifd: 'ifd0', tag: 257, type: 4, values: [height] },
      { ifd: 'ifd0', tag: 258, type: 3, values: [8, 8, 8] },
      { ifd: 'ifd0', tag: 259, type: 3, values: [1] },
      { ifd: 'ifd0', tag: 262, type: 3, values: [2] },
      { ifd: 'ifd0', tag: 273, type: 4, values: [0] },
      { ifd: 'ifd0', tag: 277, type: 3, values: [3] },
      { ifd: 'ifd0', tag: 278, type: 4, values: [height] },
      { ifd: 'ifd0', tag: 279, type: 4, values: [rgb.length] },
      ...(format === 'dng' ? [{ ifd: 'ifd0' as const, tag: 0xc612, type: 1 as const, values: [1, 4, 0, 0] }] : []),
      ...(packet ? [{ ifd: 'ifd0' as const, tag: 700, type: 1 as const, values: [...packet] }] : []),
    ];
    const tiff = exifTiff({ ...spec, rawExif: [...structure, ...(spec.rawExif ?? [])] }, width, height) as Buffer;
    const stripAt = tiff.length + (tiff.length % 2);
    // IFD0 (at 8) is sorted by tag: point StripOffsets at the pixels, after every IFD.
    for (let entry = 0; entry < tiff.readUInt16BE(8); entry++)
      if (tiff.readUInt16BE(10 + entry * 12) === 273) tiff.writeUInt32BE(stripAt, 10 + entry * 12 + 8);
    return Buffer.concat([tiff, Buffer.alloc(stripAt - tiff.length), rgb]);
  }
  const v = await vips();
  const image = v.Image.black(width, height, { bands: 3 }).add([r, g, b]).cast('uchar').copy();
  const tiff = exifTiff(spec, width, height);
  if (tiff && format !== 'gif') image.setBlob('exif-data', Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), tiff]));
  if (packet && format !== 'png' && format !== 'gif') image.setBlob('xmp-data', packet);
  const written = Buffer.from(image.writeToBuffer(`.${format}`));
  image.delete();
  if (format === 'png' && packet) {
    const idat = written.indexOf('IDAT') - 4;
    const itxt = pngChunk('iTXt', Buffer.concat([Buffer.from('XML:com.adobe.xmp\0\0\0\0\0', 'latin1'), packet]));
    return Buffer.concat([written.subarray(0, idat), itxt, written.subarray(idat)]);
  }
  if (format === 'gif' && packet) {
    // After the logical screen descriptor and its global colour table; the packet is followed by
    // the 258-byte "magic trailer" that lets a GIF reader skip it as sub-blocks.
    const packed = written[10] ?? 0;
    const at = 13 + (packed & 0x80 ? 3 * 2 ** ((packed & 7) + 1) : 0);
    const trailer = Buffer.from([1, ...Array.from({ length: 256 }, (_, i) => 255 - i), 0]);
    const extension = Buffer.concat([Buffer.from('\x21\xff\x0bXMP DataXMP', 'latin1'), packet, trailer]);
    return Buffer.concat([written.subarray(0, at), extension, written.subarray(at)]);
  }
  return written;
};
