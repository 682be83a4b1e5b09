import { SharedLinkKeyRecordSchema, type SharedLinkRecord, SharedLinkRecordSchema } from '../../model/shared-link.ts';
import { codec } from '../codec.ts';
import { indexKeys, keys } from '../keys.ts';
import { deleteWrite, putWrite, updateWrite, type Write } from '../transact.ts';

/** The link was deleted by another request first. */
export class SharedLinkGoneError extends Error {}

// The item's `type` is the entity; the link's own type is stored as `linkType`.
export const sharedLinkCodec = codec('sharedLink', SharedLinkRecordSchema, { linkType: 'type' });
export const sharedLinkKeyCodec = codec('sharedLinkKey', SharedLinkKeyRecordSchema);

const linkItem = (link: SharedLinkRecord) => ({
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

export const sharedLinkWrites = {
  create: (link: SharedLinkRecord): Write => putWrite(linkItem(link), { condition: 'absent' }),
  replace: (link: SharedLinkRecord): Write => putWrite(linkItem(link), { condition: 'present' }),
  /** Only a link that still exists: of concurrent deletes one wins, the others find it gone (and the album's count moves once). */
  delete: (link: SharedLinkRecord): Write =>
    deleteWrite(keys.sharedLink(link.userId, link.id), {
      condition: 'present',
      onConditionFailed: () => new SharedLinkGoneError(),
    }),
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
