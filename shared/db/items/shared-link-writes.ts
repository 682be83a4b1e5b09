import type { SharedLinkRecord } from '../../model/shared-link.ts';
import * as keys from '../item-keys.ts';
import { deleteWrite, putWrite, updateWrite, type Write } from '../transact.ts';
import { asRead, entryItem, linkItem } from './shared-link.ts';

/** The sharedLinkWrites of ./shared-link.ts (one export each: imported as a namespace, so a bundle carries only those used). */
export const create = (link: SharedLinkRecord): Write => putWrite(linkItem(link), { condition: 'absent' });
/** The link as changed, only while it is as read (`slug`: its slug then); else `changed`. */
export const replace = (link: SharedLinkRecord, slug: string | null): Write<'changed'> =>
  putWrite(linkItem(link), { ...asRead(slug), refusal: 'changed' });
/**
 * Only a link that still exists as read: of concurrent deletes one wins, the others find it
 * gone (and the album's count moves once); one whose slug changed meanwhile is read again.
 * `changed`: the link is not as it was read (deleted by another request, or its slug changed).
 */
const delete_ = (link: SharedLinkRecord): Write<'changed'> =>
  deleteWrite(keys.sharedLink(link.userId, link.id), { ...asRead(link.slug), refusal: 'changed' });
/** The link's slug, only while no other link has it (Immich's unique constraint on it): else `taken`. */
export const createSlug = (link: SharedLinkRecord & { slug: string }): Write<'taken'> =>
  putWrite(
    { ...keys.sharedLinkSlug(link.slug), type: 'sharedLinkSlug', linkId: link.id, userId: link.userId, keyHash: link.keyHash },
    { condition: 'absent', refusal: 'taken' },
  );
/** A slug the link gives up (on a change or its deletion), only while it is the link's. */
export const deleteSlug = (slug: string, linkId: string): Write =>
  deleteWrite(keys.sharedLinkSlug(slug), { condition: 'linkId = :linkId', values: { ':linkId': linkId } });
/** The key item a visitor's request reads: the link, its creator, its expiry and password. */
export const createKey = (link: SharedLinkRecord, owner: { email: string; isAdmin: boolean }): Write =>
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
  );
/** The key item's copy of what a visitor's request checks: the expiry and the password. */
export const setKeyState = (link: SharedLinkRecord): Write =>
  updateWrite(keys.sharedLinkKey(link.keyHash), 'SET expiresAt = :expiresAt, passwordHash = :passwordHash', {
    condition: 'present',
    values: { ':expiresAt': link.expiresAt, ':passwordHash': link.passwordHash },
  });
export const deleteKey = (link: SharedLinkRecord): Write => deleteWrite(keys.sharedLinkKey(link.keyHash));
/** An INDIVIDUAL link's asset (idempotent). */
export const addAsset = (linkId: string, assetId: string): Write => putWrite(entryItem(linkId, assetId));
/** An INDIVIDUAL link's asset, only if it is not in the link yet. */
export const addNewAsset = (linkId: string, assetId: string): Write => putWrite(entryItem(linkId, assetId), { condition: 'absent' });

export { delete_ as delete };
