import { describe, expect, it } from 'vitest';
import { extractMetadata } from '#shared/media/metadata.ts';
import { shownPoint } from '../support/orientation.ts';
import { type FaceRegion, makeJpeg } from '../support/photos.ts';

/**
 * Face regions read from a file's XMP (shared/media/faces.ts): one set (MWG, else Microsoft's), in
 * the pixels of the image as shown, its EXIF orientation applied to regions written for the image
 * as stored (docs/faces.md, "Regions from the files").
 */

/** A stored-image region (fractions, top-left based) as a box in the shown image's pixels. */
const shownBox = (region: FaceRegion, orientation: number, W: number, H: number) => {
  const corners = [
    shownPoint(orientation, region.x * W, region.y * H, W, H),
    shownPoint(orientation, (region.x + region.w) * W, (region.y + region.h) * H, W, H),
  ];
  const xs = corners.map(([x]) => x);
  const ys = corners.map(([, y]) => y);
  return { x1: Math.min(...xs), y1: Math.min(...ys), x2: Math.max(...xs), y2: Math.max(...ys) };
};

const stored = { width: 300, height: 200 };
const ana: FaceRegion = { name: 'Ana', x: 0.1, y: 0.15, w: 0.2, h: 0.3 };
const bo: FaceRegion = { name: 'Bo', x: 0.55, y: 0.5, w: 0.1, h: 0.25 };

const facesOf = async (spec: Parameters<typeof makeJpeg>[0]) => (await extractMetadata(makeJpeg({ ...stored, ...spec }))).faces;

describe('face regions of a file', () => {
  it('reads the MWG set alone when a file has both sets for the same people (one face each, not two)', async () => {
    // As photo managers write them: the same people in both conventions, each rounded its own way.
    const faces = await facesOf({
      mwgFaces: [ana, bo],
      microsoftFaces: [
        { ...ana, x: 0.102, w: 0.198 },
        { ...bo, name: 'bo', y: 0.497 },
      ],
    });
    expect(faces.map((face) => face.name)).toEqual(['Ana', 'Bo']);
    expect(faces[0]).toEqual({
      name: 'Ana',
      imageWidth: 300,
      imageHeight: 200,
      boundingBoxX1: 30,
      boundingBoxY1: 30,
      boundingBoxX2: 90,
      boundingBoxY2: 90,
    });
  });

  it('reads the Microsoft set when the file has no named MWG face (only MP, or MWG without names)', async () => {
    for (const spec of [
      { microsoftFaces: [bo] },
      {
        mwgFaces: [
          { x: 0.4, y: 0.4, w: 0.1, h: 0.1 },
          { ...ana, type: 'Focus' },
        ],
        microsoftFaces: [bo],
      },
    ]) {
      const faces = await facesOf(spec);
      expect(faces).toEqual([
        { name: 'Bo', imageWidth: 300, imageHeight: 200, boundingBoxX1: 165, boundingBoxY1: 100, boundingBoxX2: 195, boundingBoxY2: 150 },
      ]);
    }
  });

  for (const set of ['mwgFaces', 'microsoftFaces'] as const)
    it(`turns ${set === 'mwgFaces' ? 'MWG' : 'Microsoft'} regions with the EXIF orientation, 1 to 8, onto the image as shown`, async () => {
      for (let orientation = 1; orientation <= 8; orientation++) {
        const faces = await facesOf({ orientation, [set]: [ana, bo] });
        const sideways = orientation >= 5;
        const shown = sideways ? { width: stored.height, height: stored.width } : stored;
        expect(faces.map((face) => face.name)).toEqual(['Ana', 'Bo']);
        for (const [i, region] of [ana, bo].entries()) {
          const face = faces[i] as NonNullable<(typeof faces)[number]>;
          const truth = shownBox(region, orientation, stored.width, stored.height);
          expect([face.imageWidth, face.imageHeight], `orientation ${orientation}`).toEqual([shown.width, shown.height]);
          for (const [got, want] of [
            [face.boundingBoxX1, truth.x1],
            [face.boundingBoxY1, truth.y1],
            [face.boundingBoxX2, truth.x2],
            [face.boundingBoxY2, truth.y2],
          ] as const)
            expect(Math.abs(got - want), `orientation ${orientation}, ${region.name}: ${got} for ${want}`).toBeLessThanOrEqual(1);
        }
      }
    });

  it('keeps the AppliedToDimensions the MWG set names (the stored image’s), turned with it', async () => {
    // A sidecar's regions applied to a 3000 × 2000 original of which this file is a smaller copy: the same fractions.
    const faces = await facesOf({ orientation: 6, mwgFaces: [ana], appliedToDimensions: { width: 3000, height: 2000 } });
    expect(faces).toEqual([
      {
        name: 'Ana',
        imageWidth: 2000,
        imageHeight: 3000,
        boundingBoxX1: 1100,
        boundingBoxY1: 300,
        boundingBoxX2: 1700,
        boundingBoxY2: 900,
      },
    ]);
  });
});
