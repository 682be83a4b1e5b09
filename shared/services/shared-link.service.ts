import { randomUUID } from 'node:crypto';
import { requireAlbum } from '../access/album-access.ts';
import { allowedAssets, requireAssets } from '../access/asset-access.ts';
import { Permission } from '../access/permission.ts';
import { linkTokensOf, linkUnlocked } from '../access/route.ts';
import { requireSharedLink, requireVisit } from '../access/shared-link-access.ts';
import {
  hashPassword,
  hashSharedLinkKey,
  sharedLinkKey,
  sharedLinkPasswordStandIn,
  sharedLinkToken,
  verifyPassword,
} from '../core/crypto.ts';
import { Conflict, Inaccessible, Invalid, Unauthenticated } from '../core/errors.ts';
import * as albumRepo from '../db/album.repository.ts';
import * as assetRepo from '../db/asset.repository.ts';
import * as sharedLinkRepo from '../db/shared-link.repository.ts';
import * as userRepo from '../db/user.repository.ts';
import type { AssetRecord } from '../model/asset.ts';
import { byFileCreatedAt, seenByOthers } from '../model/asset.ts';
import type {
  AssetIdResult,
  LinkContents,
  SharedLinkCreate,
  SharedLinkEdit,
  SharedLinkRecord,
  SharedLinkShown,
} from '../model/shared-link.ts';
import type { Auth } from '../model/user.ts';
import { linkSecret } from '../storage/link-secret.ts';
import { userRefused } from './user-refusals.ts';

/**
 * What a link shows: its own assets, then its album's, each list by fileCreatedAt ascending,
 * without duplicates (the first kept) and without trashed assets; and the album (its count and
 * dates, no assets, no link flags: Immich does not load those relations here).
 */
const contentsOf = async (link: SharedLinkRecord): Promise<LinkContents> => {
  const [ownIds, album, members, owner] = await Promise.all([
    sharedLinkRepo.listAssetIds(link.id),
    link.albumId ? albumRepo.get(link.userId, link.albumId) : Promise.resolve(undefined),
    link.albumId ? albumRepo.listMembers(link.albumId) : Promise.resolve([]),
    link.albumId ? userRepo.get(link.userId) : Promise.resolve(undefined),
  ]);
  const albumIds = members.filter(seenByOthers).map((member) => member.assetId);
  const byId = new Map((await assetRepo.getMany([...ownIds, ...albumIds])).filter(seenByOthers).map((asset) => [asset.id, asset]));
  const pick = (ids: string[]) => ids.flatMap((id) => byId.get(id) ?? []).sort(byFileCreatedAt('asc'));
  const seen = new Set<string>();
  const assets = [...pick(ownIds), ...pick(albumIds)].filter((asset) => !seen.has(asset.id) && seen.add(asset.id));
  return {
    assets,
    ...(album && owner ? { album: { album, owner, members } } : {}),
  };
};

/** Immich's answer when a slug is another link's (its unique constraint). */
const slugTaken = () => new Invalid('Failed to save shared link');

/** A link as its answers show it: its key, and its password's stand-in when it has one. */
const shownOf = (secret: string, link: SharedLinkRecord, contents?: LinkContents): SharedLinkShown => ({
  link,
  key: sharedLinkKey(secret, link.id),
  password: link.passwordHash ? sharedLinkPasswordStandIn(secret, link.id, link.passwordHash) : null,
  ...(contents ? { contents } : {}),
});

/**
 * POST /shared-link and v3's POST /shared-links: Immich's rules and messages. An empty
 * `password`, `description` or `slug` is none, as Immich stores it; a slug another link has is
 * Immich's 400 `Failed to save shared link`, and nothing is written. `withAssets`: the answer
 * lists the link's own assets, as v3 answers (its album not loaded); v1.100 answered none.
 */
export const createSharedLink = async (
  auth: Auth,
  dto: SharedLinkCreate,
  options: { withAssets?: boolean } = {},
): Promise<SharedLinkShown> => {
  let assets: AssetRecord[] = [];
  if (dto.type === 'ALBUM') {
    if (!dto.albumId) throw new Invalid('Invalid albumId');
    await requireAlbum(auth, Permission.AlbumShare, dto.albumId);
  } else {
    if (!dto.assetIds || dto.assetIds.length === 0) throw new Invalid('Invalid assetIds');
    assets = await requireAssets(auth, Permission.AssetShare, dto.assetIds);
  }
  const id = randomUUID();
  const secret = await linkSecret();
  const key = sharedLinkKey(secret, id);
  const password = dto.password || null;
  const link: SharedLinkRecord = {
    id,
    userId: auth.user.id,
    type: dto.type,
    albumId: dto.type === 'ALBUM' ? (dto.albumId ?? null) : null,
    description: dto.description || null,
    passwordHash: password ? await hashPassword(password) : null,
    keyHash: hashSharedLinkKey(key),
    createdAt: new Date().toISOString(),
    expiresAt: dto.expiresAt ? dto.expiresAt.toISOString() : null,
    allowUpload: dto.allowUpload ?? true,
    allowDownload: dto.allowDownload ?? true,
    showExif: dto.showMetadata ?? true,
    slug: dto.slug || null,
  };
  const created = await sharedLinkRepo.create(
    link,
    auth.user,
    assets.map((asset) => asset.id),
  );
  if (!created.ok) throw created.reason === 'taken' ? slugTaken() : userRefused(created.reason);
  return shownOf(secret, link, options.withAssets ? { assets: [...assets].sort(byFileCreatedAt('asc')) } : undefined);
};

/** GET /shared-link and GET /shared-links: the caller's links, newest first, each with its contents; v3 filters by album or id. */
export const getAllSharedLinks = async (
  auth: Auth,
  filter: { albumId?: string | undefined; id?: string | undefined } = {},
): Promise<SharedLinkShown[]> => {
  const links = (await sharedLinkRepo.list(auth.user.id))
    .filter(
      (link) => (filter.albumId === undefined || link.albumId === filter.albumId) && (filter.id === undefined || link.id === filter.id),
    )
    .sort((a, b) => b.createdAt.localeCompare(a.createdAt) || a.id.localeCompare(b.id));
  const [secret, contents] = await Promise.all([linkSecret(), Promise.all(links.map(contentsOf))]);
  return links.map((link, index) => shownOf(secret, link, contents[index]));
};

/** GET /shared-link/:id: the creator's view (always with metadata; expiry not checked, as in Immich). */
export const getSharedLinkById = async (auth: Auth, id: string): Promise<SharedLinkShown> => {
  const [link, secret] = await Promise.all([requireSharedLink(auth, id), linkSecret()]);
  return shownOf(secret, link, await contentsOf(link));
};

/**
 * PATCH /shared-link/:id and v3's PATCH /shared-links/:id. `changeExpiryTime` without `expiresAt`
 * removes the expiry (Immich's rule). `password`: a new one, `""` none (as Immich stores it), or
 * the stand-in the link's answers give, which keeps it (the apps' edit forms send back what they
 * were given). `slug`: absent keeps it, `""` or null removes it (freeing it for other links), a
 * slug another link has is Immich's 400 `Failed to save shared link`. Written only while the link
 * is as read: a concurrent change is read again and this edit applied to it.
 */
export const updateSharedLink = async (auth: Auth, id: string, dto: SharedLinkEdit): Promise<SharedLinkShown> => {
  const expiresAt =
    dto.changeExpiryTime && !dto.expiresAt ? null : dto.expiresAt === undefined ? undefined : (dto.expiresAt?.toISOString() ?? null);
  const secret = await linkSecret();
  let newHash: Promise<string> | undefined;
  for (let attempt = 0; ; attempt++) {
    const link = await requireSharedLink(auth, id);
    const updated: SharedLinkRecord = {
      ...link,
      ...(dto.description !== undefined && dto.description !== null ? { description: dto.description } : {}),
      ...(expiresAt !== undefined ? { expiresAt } : {}),
      ...(dto.allowUpload !== undefined && dto.allowUpload !== null ? { allowUpload: dto.allowUpload } : {}),
      ...(dto.allowDownload !== undefined && dto.allowDownload !== null ? { allowDownload: dto.allowDownload } : {}),
      ...(dto.showMetadata !== undefined && dto.showMetadata !== null ? { showExif: dto.showMetadata } : {}),
      ...(dto.slug !== undefined ? { slug: dto.slug || null } : {}),
    };
    const password = dto.password;
    const standIn = link.passwordHash ? sharedLinkPasswordStandIn(secret, link.id, link.passwordHash) : undefined;
    if (password !== undefined && password !== null && password !== standIn) {
      // Hashed once, whatever concurrent changes make this edit be applied again.
      newHash ??= password ? hashPassword(password) : undefined;
      updated.passwordHash = newHash ? await newHash : null;
    }
    const replaced = await sharedLinkRepo.replaceSharedLink(updated, link);
    if (replaced.ok) return shownOf(secret, updated, await contentsOf(updated));
    if (replaced.reason === 'taken') throw slugTaken();
    if (attempt >= 4) throw new Conflict('The shared link is being changed by another request; try again');
  }
};

/** DELETE /shared-link/:id: the key stops working at once. */
export const deleteSharedLink = async (auth: Auth, id: string): Promise<void> => {
  const link = await requireSharedLink(auth, id);
  if (!(await sharedLinkRepo.remove(link, await sharedLinkRepo.listAssetIds(link.id))).ok) throw new Inaccessible('Shared link not found');
};

const individualLink = async (auth: Auth, id: string): Promise<{ link: SharedLinkRecord; present: Set<string> }> => {
  const link = await requireSharedLink(auth, id);
  if (link.type !== 'INDIVIDUAL') throw new Invalid('Invalid shared link type');
  return { link, present: new Set(await sharedLinkRepo.listAssetIds(link.id)) };
};

/** PUT /shared-link/:id/assets (INDIVIDUAL links): per id `success`, `duplicate` or `no_permission`. */
export const addSharedLinkAssets = async (auth: Auth, id: string, assetIds: readonly string[]): Promise<AssetIdResult[]> => {
  const { link, present } = await individualLink(auth, id);
  const allowed = new Set(
    (
      await allowedAssets(
        auth,
        Permission.AssetShare,
        assetIds.filter((assetId) => !present.has(assetId)),
      )
    ).map((asset) => asset.id),
  );
  const results = assetIds.map((assetId): AssetIdResult => {
    if (present.has(assetId)) return { assetId, success: false, error: 'duplicate' };
    if (!allowed.has(assetId)) return { assetId, success: false, error: 'no_permission' };
    present.add(assetId);
    return { assetId, success: true };
  });
  // Each id reports what this request did: one a concurrent request added first is a duplicate.
  const adding = results.filter((result) => result.success).map((result) => result.assetId);
  const outcomes = new Map((await sharedLinkRepo.addAssets(link.id, adding)).map((outcome, index) => [adding[index], outcome]));
  return results.map((result): AssetIdResult => {
    const outcome = result.success ? outcomes.get(result.assetId) : undefined;
    if (outcome?.ok !== false) return result;
    return { assetId: result.assetId, success: false, error: outcome.reason === 'duplicate' ? 'duplicate' : 'no_permission' };
  });
};

/** DELETE /shared-link/:id/assets (INDIVIDUAL links): per id `success` or `not_found`. */
export const removeSharedLinkAssets = async (auth: Auth, id: string, assetIds: readonly string[]): Promise<AssetIdResult[]> => {
  const { link, present } = await individualLink(auth, id);
  const results = assetIds.map((assetId): AssetIdResult => {
    if (!present.has(assetId)) return { assetId, success: false, error: 'not_found' };
    present.delete(assetId);
    return { assetId, success: true };
  });
  // A concurrent request may remove the same entry first: then it was not found here.
  const removing = results.filter((result) => result.success).map((result) => result.assetId);
  const removed = new Map((await sharedLinkRepo.removeAssets(link.id, removing)).map((outcome, index) => [removing[index], outcome]));
  return results.map(
    (result): AssetIdResult =>
      result.success && removed.get(result.assetId)?.ok === false
        ? { assetId: result.assetId, success: false, error: 'not_found' }
        : result,
  );
};

export interface SharedLinkPasswordInput {
  password?: string | null | undefined;
  /** The tokens a password earned, comma-separated: from the query, else from the cookie. */
  token?: string | null | undefined;
}

/**
 * POST /shared-links/login (v3): a visitor proves a password link's password, whatever tokens
 * they hold already (Immich checks it every time): 400 for a link without one, 401 `Invalid
 * password` for a wrong one. The answer carries the link and the tokens (the earned one added).
 */
export const loginToSharedLink = async (auth: Auth, password: string, token: string | undefined): Promise<SharedLinkShown> => {
  const link = await requireVisit(auth);
  if (!link.passwordHash) throw new Invalid('Shared link is not password protected');
  if (!(await verifyPassword(password, link.passwordHash))) throw new Unauthenticated('Invalid password');
  const tokens = linkTokensOf(token);
  const secret = await linkSecret();
  tokens.push(sharedLinkToken(secret, link.id, link.passwordHash));
  return { ...shownOf(secret, link, await contentsOf(link)), token: tokens.join(',') };
};

/**
 * GET /shared-link/me: the visitor's view. A password link needs `password` (or a token a
 * password earned), else `Invalid password`; the answer then carries the tokens, for the caller
 * to keep (the HTTP edge sets them as a cookie). With `showMetadata: false` every asset is reduced
 * to Immich's sanitized form: no EXIF, no GPS, no file names, no dates but the local one.
 */
export const getMySharedLink = async (auth: Auth, dto: SharedLinkPasswordInput): Promise<SharedLinkShown> => {
  const link = await requireVisit(auth);
  const secret = await linkSecret();
  let token: string | undefined;
  if (link.passwordHash) {
    const tokens = linkTokensOf(dto.token);
    const passwordHash = link.passwordHash;
    // The cookie holds the tokens of every link the visitor opened: all are kept (expired ones fail on their own).
    if (!linkUnlocked(secret, dto.token, link.id, passwordHash)) {
      if (!dto.password || !(await verifyPassword(dto.password, passwordHash))) throw new Unauthenticated('Invalid password');
      tokens.push(sharedLinkToken(secret, link.id, passwordHash));
    }
    token = tokens.join(',');
  }
  // The link's own key, whether the visitor came with it or with the link's slug.
  return { ...shownOf(secret, link, await contentsOf(link)), ...(token ? { token } : {}) };
};
