import {
  SharedLinkKeyRecordSchema,
  type SharedLinkRecord,
  SharedLinkRecordSchema,
  SharedLinkSlugRecordSchema,
} from '../../model/shared-link.ts';
import { codec } from '../codec.ts';
import * as indexKeys from '../index-keys.ts';
import * as keys from '../item-keys.ts';

// The item's `type` is the entity; the link's own type is stored as `linkType`.
export const sharedLinkCodec = codec('sharedLink', SharedLinkRecordSchema, { linkType: 'type' });
export const sharedLinkKeyCodec = codec('sharedLinkKey', SharedLinkKeyRecordSchema);
export const sharedLinkSlugCodec = codec('sharedLinkSlug', SharedLinkSlugRecordSchema);

/**
 * The link still exists with the slug it was read with (none: null, or absent on a link stored
 * before slugs), so a write of it never leaves a slug item that its link no longer names.
 */
export const asRead = (slug: string | null) =>
  slug === null
    ? { condition: 'attribute_exists(pk) AND (attribute_not_exists(slug) OR attribute_type(slug, :null))', values: { ':null': 'NULL' } }
    : { condition: 'attribute_exists(pk) AND slug = :slug', values: { ':slug': slug } };

export const linkItem = (link: SharedLinkRecord) => ({
  ...link,
  ...keys.sharedLink(link.userId, link.id),
  type: 'sharedLink',
  linkType: link.type,
});

export const entryItem = (linkId: string, assetId: string) => ({
  ...keys.sharedLinkAsset(linkId, assetId),
  ...indexKeys.assetLinks(assetId, linkId),
  type: 'sharedLinkAsset',
  linkId,
  assetId,
});
