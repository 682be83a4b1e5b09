import { describe, expect, it } from 'vitest';
import { checkPhotoEdits } from '#shared/domain/photo-edits.ts';
import type { PhotoEditRequest } from '#shared/model/asset.ts';
import { assetRecord } from '../support/records.ts';

/**
 * Immich v3's photo editor's refusals (docs/immich-compatibility.md, "The photo editor"), the rule
 * alone: which assets may be edited, and whether a list of edits fits the image as shown. The
 * handler tests (test/functions/v3-photo-edits.test.ts) prove the route asks it.
 */

const owner = '00000000-0000-4000-a000-000000000001';
/** A 400×300 photo as shown. */
const photo = (given: Parameters<typeof assetRecord>[1] = {}) =>
  assetRecord(owner, { ...given, exif: { exifImageWidth: 400, exifImageHeight: 300, ...given.exif } });
const crop = (x: number, y: number, width: number, height: number): PhotoEditRequest => ({
  action: 'crop',
  parameters: { x, y, width, height },
});
const rotate: PhotoEditRequest = { action: 'rotate', parameters: { angle: 90 } };

describe('checkPhotoEdits', () => {
  it('takes edits of a photo that fit it: a crop first, within the image as shown', () => {
    expect(() => checkPhotoEdits(photo(), [rotate])).not.toThrow();
    expect(() => checkPhotoEdits(photo(), [crop(200, 0, 200, 300), rotate])).not.toThrow();
    // Turned by its EXIF orientation (6: a quarter clockwise), it is shown 300×400.
    expect(() => checkPhotoEdits(photo({ exif: { orientation: '6' } }), [crop(0, 100, 300, 300)])).not.toThrow();
  });

  it.each([
    ['a video', photo({ type: 'VIDEO' }), 'Only images can be edited'],
    ['a live photo', photo({ livePhotoVideoId: '00000000-0000-4000-a000-000000000002' }), 'Editing live photos is not supported'],
    ['an equirectangular panorama', photo({ exif: { projectionType: 'EQUIRECTANGULAR' } }), 'Editing panorama images is not supported'],
    ['an Insta360 file (.insp)', photo({ originalFileName: 'IMG_1.INSP' }), 'Editing panorama images is not supported'],
    ['a GIF', photo({ originalPath: 'upload/u/a/b/x.GIF' }), 'Editing GIF images is not supported'],
    ['an SVG', photo({ originalPath: 'upload/u/a/b/x.svg' }), 'Editing SVG images is not supported'],
    ['a photo of unknown size', assetRecord(owner), 'Asset dimensions are not available for editing'],
  ])('refuses %s', (_what, asset, message) => {
    expect(() => checkPhotoEdits(asset, [rotate])).toThrow(message);
  });

  it('asks in Immich’s order: the asset first, then the edits', () => {
    expect(() => checkPhotoEdits(photo({ type: 'VIDEO', livePhotoVideoId: owner }), [rotate, crop(0, 0, 1, 1)])).toThrow(
      'Only images can be edited',
    );
    expect(() => checkPhotoEdits(assetRecord(owner), [rotate, crop(0, 0, 1, 1)])).toThrow('Asset dimensions are not available');
  });

  it('refuses a crop that is not first, or that leaves the image as shown', () => {
    expect(() => checkPhotoEdits(photo(), [rotate, crop(0, 0, 100, 100)])).toThrow('Crop action must be the first edit action');
    expect(() => checkPhotoEdits(photo(), [crop(350, 0, 100, 100)])).toThrow('Crop parameters are out of bounds');
    expect(() => checkPhotoEdits(photo(), [crop(0, 250, 100, 100)])).toThrow('Crop parameters are out of bounds');
    expect(() => checkPhotoEdits(photo({ exif: { orientation: '6' } }), [crop(0, 0, 400, 300)])).toThrow(
      'Crop parameters are out of bounds',
    );
  });
});
