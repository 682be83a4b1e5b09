import {
  SharedLinkKeyRecordSchema,
  type SharedLinkRecord,
  SharedLinkRecordSchema,
  SharedLinkSlugRecordSchema,
} from '../../model/shared-link.ts';
import { codec } from '../codec.ts';
import * as indexKeys from '../index-keys.ts';
import * as keys from '../item-keys.ts';
import { deleteWrite, putWrite, updateWrite, type Write } from '../transact.ts';

// The item's `type` is the entity; the link's own type is stored as `linkType`.
export const sharedLinkCodec = codec('sharedLink', SharedLinkRecordSchema, { linkType: 'type' });
export const sharedLinkKeyCodec = codec('sharedLinkKey', SharedLinkKeyRecordSchema);
export const sharedLinkSlugCodec = codec('sharedLinkSlug', SharedLinkSlugRecordSchema);

/**
 * The link still exists with the slug it was read with (none: null, or absent on a link stored
 * before slugs), so a write of it never leaves a slug item that its link no longer names.
 */
const asRead = (slug: string | null) =>
  slug === null
    ? { condition: 'attribute_exists(pk) AND (attribute_not_exists(slug) OR attribute_type(slug, :null))', values: { ':null': 'NULL' } }
    : { condition: 'attribute_exists(pk) AND slug = :slug', values: { ':slug': slug } };

const linkItem = (link: SharedLinkRecord) => ({
  ...link,
  ...keys.sharedLink(link.userId, link.id),
  type: 'sharedLink',
  linkType: link.type,
});

const entryItem = (linkId: string, assetId: string) => ({
  ...keys.sharedLinkAsset(linkId, assetId),
  ...indexKeys.assetLinks(assetId, linkId),
  type: 'sharedLinkAsset',
  linkId,
  assetId,
});

export const sharedLinkWrites = {
  create: (link: SharedLinkRecord): Write => putWrite(linkItem(link), { condition: 'absent' }),
  /** The link as changed, only while it is as read (`slug`: its slug then); else `changed`. */
  replace: (link: SharedLinkRecord, slug: string | null): Write<'changed'> =>
    putWrite(linkItem(link), { ...asRead(slug), refusal: 'changed' }),
  /**
   * Only a link that still exists as read: of concurrent deletes one wins, the others find it
   * gone (and the album's count moves once); one whose slug changed meanwhile is read again.
   * `changed`: the link is not as it was read (deleted by another request, or its slug changed).
   */
  delete: (link: SharedLinkRecord): Write<'changed'> =>
    deleteWrite(keys.sharedLink(link.userId, link.id), { ...asRead(link.slug), refusal: 'changed' }),
  /** The link's slug, only while no other link has it (Immich's unique constraint on it): else `taken`. */
  createSlug: (link: SharedLinkRecord & { slug: string }): Write<'taken'> =>
    putWrite(
      { ...keys.sharedLinkSlug(link.slug), type: 'sharedLinkSlug', linkId: link.id, userId: link.userId, keyHash: link.keyHash },
      { condition: 'absent', refusal: 'taken' },
    ),
  /** A slug the link gives up (on a change or its deletion), only while it is the link's. */
  deleteSlug: (slug: string, linkId: string): Write =>
    deleteWrite(keys.sharedLinkSlug(slug), { condition: 'linkId = :linkId', values: { ':linkId': linkId } }),
  /** The key item a visitor's request reads: the link, its creator, its expiry and password. */
  createKey: (link: SharedLinkRecord, owner: { email: string; isAdmin: boolean }): Write =>
    putWrite(
      {
        ...keys.sharedLinkKey(link.keyHash),
        type: 'sharedLinkKey',
        linkId: link.id,
        userId: link.userId,
        email: owner.email,
        isAdmin: owner.isAdmin,
        expiresAt: link.expiresAt,
        passwordHash: link.passwordHash,
      },
      { condition: 'absent' },
    ),
  /** The key item's copy of what a visitor's request checks: the expiry and the password. */
  setKeyState: (link: SharedLinkRecord): Write =>
    updateWrite(keys.sharedLinkKey(link.keyHash), 'SET expiresAt = :expiresAt, passwordHash = :passwordHash', {
      condition: 'present',
      values: { ':expiresAt': link.expiresAt, ':passwordHash': link.passwordHash },
    }),
  deleteKey: (link: SharedLinkRecord): Write => deleteWrite(keys.sharedLinkKey(link.keyHash)),
  /** An INDIVIDUAL link's asset (idempotent). */
  addAsset: (linkId: string, assetId: string): Write => putWrite(entryItem(linkId, assetId)),
  /** An INDIVIDUAL link's asset, only if it is not in the link yet. */
  addNewAsset: (linkId: string, assetId: string): Write => putWrite(entryItem(linkId, assetId), { condition: 'absent' }),
};
