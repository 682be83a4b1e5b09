/**
 * Immich v3.2's asset metadata requests (`@immich/sdk` 3.2.2: AssetMetadataUpsertDto,
 * AssetMetadataBulkUpsertDto, AssetMetadataBulkDeleteDto, AssetMetadataRouteParams). A key is any
 * string and a value any JSON object, as Immich's; here within the limits a DynamoDB item has
 * (docs/immich-compatibility.md, "Asset metadata"). A missing field gets its own rule's message
 * (`items must be an array`), as `dto` fills it in.
 */
import * as v from 'valibot';
import { metadataValue } from '../../model/asset-metadata.ts';
import { limits } from '../../model/limits.ts';
import { dto } from '../common.ts';
import { text, uuid } from './common.ts';

/** The value's JSON fits an item; a value nested too deeply to be written out again fails too. */
const fitsStored = (value: Record<string, unknown>): boolean => {
  try {
    return Buffer.byteLength(JSON.stringify(value)) <= limits.metadataValueBytes;
  } catch {
    return false;
  }
};

/**
 * A key as DynamoDB stores it: a lone surrogate becomes U+FFFD (UTF-8 has none), so two keys that
 * differ only there are one key, and a request naming both is refused as a repeat, never a 500.
 */
const wellFormed = v.transform((key: string) => key.toWellFormed());
const anyKey = v.pipe(v.string('$property must be a string'), wellFormed);

export const metadataKey = v.pipe(text(limits.metadataKey), wellFormed);

const metadataEntryValue = v.pipe(
  metadataValue('$property must be an object'),
  v.check(fitsStored, `$property must be at most ${limits.metadataValueBytes} bytes of JSON`),
);

/** One key and its value (AssetMetadataUpsertItemDto): PUT /assets/:id/metadata, and the upload's `metadata` field. */
export const AssetMetadataUpsertItem = dto({ key: metadataKey, value: metadataEntryValue });

const items = <S extends v.GenericSchema>(item: S) => v.array(item, '$property must be an array');
const bulkItems = <S extends v.GenericSchema>(item: S) =>
  v.pipe(items(item), v.maxLength(limits.metadataBulkItems, `$property must contain at most ${limits.metadataBulkItems} items`));

/** PUT /assets/:id/metadata. */
export const AssetMetadataUpsertDto = dto({ items: items(AssetMetadataUpsertItem) });

/** PUT /assets/metadata: keys of many assets (the iOS app sends up to 20,000 a request). */
export const AssetMetadataBulkUpsertDto = dto({
  items: bulkItems(dto({ assetId: uuid, key: metadataKey, value: metadataEntryValue })),
});

/** DELETE /assets/metadata. */
export const AssetMetadataBulkDeleteDto = dto({ items: bulkItems(dto({ assetId: uuid, key: anyKey })) });

/** `/assets/:id/metadata/:key`: any key (one that cannot be stored is not there). */
export const AssetMetadataRouteParams = dto({ id: uuid, key: anyKey });
