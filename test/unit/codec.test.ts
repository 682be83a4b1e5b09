import { describe, expect, it } from 'vitest';
import { CorruptItemError } from '#shared/db/codec.ts';
import { assetCodec, assetItem } from '#shared/db/items/asset.ts';
import { faceEntryCodec, faceItem } from '#shared/db/items/face.ts';
import { sharedLinkCodec } from '#shared/db/items/shared-link.ts';
import { userCodec } from '#shared/db/items/user.ts';
import type { AssetRecord } from '#shared/model/asset.ts';
import { assetRecord } from '../support/records.ts';

const asset: AssetRecord = assetRecord('u1', {
  id: 'a1',
  type: 'VIDEO',
  originalPath: 'upload/u1/a1.mp4',
  originalFileName: 'a.mp4',
  checksum: 'ab'.repeat(20),
  exif: { make: 'Canon', exifImageWidth: 10, exifImageHeight: 10, fileSizeInByte: 1, city: 'Oslo' },
});

describe('entity codecs', () => {
  it('read back exactly the record that was written: keys, index and type attributes dropped, the asset type restored', () => {
    const item = assetItem(asset);
    expect(item).toMatchObject({
      pk: 'ASSET#a1',
      gsi1pk: 'TIMELINE#u1',
      ix_make: 'u1#Canon',
      ix_city: 'u1#Oslo',
      type: 'asset',
      assetType: 'VIDEO',
    });
    expect(assetCodec.read(item)).toEqual(asset);
  });

  it('fill fields an older item lacks with their defaults', () => {
    const { personIds: _p, faceIds: _f, albumCount: _a, ...older } = assetItem(asset);
    expect(assetCodec.read(older)).toMatchObject({ personIds: [], faceIds: [], albumCount: 0 });
  });

  it("read an asset written before Immich v3's concepts: visibility from its two flags, its duration text in milliseconds", () => {
    const { visibility: _v, duration: _d, ...current } = assetItem(asset);
    const older = (flags: { isArchived: boolean; isVisible: boolean }, duration: string | null) => ({ ...current, ...flags, duration });
    expect(assetCodec.read(older({ isArchived: false, isVisible: true }, '00:01:05.005'))).toMatchObject({
      visibility: 'timeline',
      duration: 65_005,
    });
    expect(assetCodec.read(older({ isArchived: true, isVisible: true }, '0:00:00.00000'))).toMatchObject({
      visibility: 'archive',
      duration: null,
    });
    // A live photo's video part: hidden, whatever its archive flag said.
    expect(assetCodec.read(older({ isArchived: true, isVisible: false }, 'not a duration'))).toMatchObject({
      visibility: 'hidden',
      duration: null,
    });
    // A status copy (a face, an album entry) written before: the same rule.
    const face = { id: 'f1', assetId: 'a1', personId: 'p1', ownerId: 'u1', imageWidth: 10, imageHeight: 10, index: 0 };
    const { visibility: _s, ...olderFace } = faceItem(
      { ...face, boundingBoxX1: 0, boundingBoxY1: 0, boundingBoxX2: 1, boundingBoxY2: 1, sourceType: 'exif' },
      asset,
    );
    expect(faceEntryCodec.read({ ...olderFace, isArchived: true, isVisible: true })).toMatchObject({ visibility: 'archive' });
  });

  it('refuse an item that is not what the code expects, naming the item and the field', () => {
    expect(() => assetCodec.read({ ...assetItem(asset), isFavorite: 'yes' })).toThrow(CorruptItemError);
    expect(() => assetCodec.read({ ...assetItem(asset), isFavorite: 'yes' })).toThrow(/ASSET#a1 \/ ASSET.*isFavorite/);
    expect(() => userCodec.read({ pk: 'USER#x', sk: 'USER', id: 'x' })).toThrow(CorruptItemError);
    expect(() => sharedLinkCodec.read({ pk: 'USER#x', sk: 'SHAREDLINK#y', linkType: 'EVERYTHING' })).toThrow(CorruptItemError);
  });
});
