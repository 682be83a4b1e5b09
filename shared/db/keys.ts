/**
 * Every key shape in the table, as pure functions. docs/data-model.md lists the same shapes, and
 * test/unit/keys.test.ts checks that the two agree.
 */
export interface Key {
  pk: string;
  sk: string;
}

export const keys = {
  /** A user's profile. Its partition also holds the user's session and API-key index entries. */
  user: (userId: string): Key => ({ pk: `USER#${userId}`, sk: 'USER' }),
  /** Uniqueness of an email (lower-cased); holds the userId, so login finds the user by email. */
  email: (email: string): Key => ({ pk: `EMAIL#${email}`, sk: 'EMAIL' }),
  /** Uniqueness of a storage label. */
  storageLabel: (label: string): Key => ({ pk: `LABEL#${label}`, sk: 'LABEL' }),
  /** Exists once the admin exists: only one admin can ever sign up. */
  admin: (): Key => ({ pk: 'ADMIN', sk: 'ADMIN' }),
  /** A session, by SHA-256 of its token: the one GetItem of each session-authenticated request. */
  session: (tokenHash: string): Key => ({ pk: `SESSION#${tokenHash}`, sk: 'SESSION' }),
  /** The same session listed under its user, so all of a user's sessions can be found and ended. */
  userSession: (userId: string, tokenHash: string): Key => ({ pk: `USER#${userId}`, sk: `SESSION#${tokenHash}` }),
  /** An API key, by SHA-256 of its secret: the one GetItem of each key-authenticated request. */
  apiKey: (keyHash: string): Key => ({ pk: `APIKEY#${keyHash}`, sk: 'APIKEY' }),
  /** The same key listed under its user, by its public id. */
  userApiKey: (userId: string, apiKeyId: string): Key => ({ pk: `USER#${userId}`, sk: `APIKEY#${apiKeyId}` }),
  /** The system configuration: one item holding the differences from the defaults. */
  config: (): Key => ({ pk: 'CONFIG', sk: 'CONFIG' }),
  /** An asset. Its partition also holds the asset's faces. */
  asset: (assetId: string): Key => ({ pk: `ASSET#${assetId}`, sk: 'ASSET' }),
  /** One face on an asset (a named XMP face region), in the asset's partition. */
  assetFace: (assetId: string, faceId: string): Key => ({ pk: `ASSET#${assetId}`, sk: `FACE#${faceId}` }),
  /** Uniqueness of a file per owner: SHA-1 (hex) → assetId. Bulk upload checks read these. */
  checksum: (ownerId: string, sha1Hex: string): Key => ({ pk: `CHECKSUM#${ownerId}#${sha1Hex}`, sk: 'CHECKSUM' }),
  /** A person, under its owner: reading it by the caller's id is also the access check. */
  person: (ownerId: string, personId: string): Key => ({ pk: `USER#${ownerId}`, sk: `PERSON#${personId}` }),
  /** Uniqueness of a person's name per owner (case-insensitive), by hash of the folded name → personId. */
  personName: (ownerId: string, nameHash: string): Key => ({ pk: `USER#${ownerId}`, sk: `PERSONNAME#${nameHash}` }),
  /** An album, under its owner: reading it by the caller's id is also the ownership check. */
  album: (ownerId: string, albumId: string): Key => ({ pk: `USER#${ownerId}`, sk: `ALBUM#${albumId}` }),
  /** An asset in an album, in the album's partition. */
  albumAsset: (albumId: string, assetId: string): Key => ({ pk: `ALBUM#${albumId}`, sk: `ASSET#${assetId}` }),
  /** A shared link, under its creator. */
  sharedLink: (ownerId: string, linkId: string): Key => ({ pk: `USER#${ownerId}`, sk: `SHAREDLINK#${linkId}` }),
  /** A shared link by SHA-256 of its key: the one GetItem of a visitor's request. */
  sharedLinkKey: (keyHash: string): Key => ({ pk: `SHAREDLINKKEY#${keyHash}`, sk: 'SHAREDLINKKEY' }),
  /** An asset of an INDIVIDUAL shared link, in the link's partition. */
  sharedLinkAsset: (linkId: string, assetId: string): Key => ({ pk: `SHAREDLINK#${linkId}`, sk: `ASSET#${assetId}` }),
  /** A text-search posting: an owner's asset having a word, in date order. */
  term: (ownerId: string, word: string, fileCreatedAt: string, assetId: string): Key => ({ pk: `TERM#${ownerId}#${word}`, sk: `${fileCreatedAt}#${assetId}` }),
} as const;

/** Secondary-index keys: an owner's timeline (gsi1) and a person's faces (gsi2). */
export const indexKeys = {
  /** gsi1: an owner's assets ordered by fileCreatedAt (ties by id). */
  timeline: (ownerId: string, fileCreatedAt: string, assetId: string) => ({ gsi1pk: `TIMELINE#${ownerId}`, gsi1sk: `${fileCreatedAt}#${assetId}` }),
  /** gsi2: a person's faces, ordered by their asset's fileCreatedAt. */
  personFaces: (personId: string, fileCreatedAt: string, assetId: string, faceId: string) => ({
    gsi2pk: `PERSON#${personId}`,
    gsi2sk: `${fileCreatedAt}#${assetId}#${faceId}`,
  }),
  /** gsi2: the albums an asset is in (kept in step when the asset is trashed, archived or deleted). */
  assetAlbums: (assetId: string, albumId: string) => ({ gsi2pk: `ASSETALBUMS#${assetId}`, gsi2sk: albumId }),
  /** gsi2: the shared links an asset is in. */
  assetLinks: (assetId: string, linkId: string) => ({ gsi2pk: `ASSETLINKS#${assetId}`, gsi2sk: linkId }),
} as const;

/** Prefixes of the sort keys queried with begins_with. */
export const prefixes = {
  userSessions: 'SESSION#',
  userApiKeys: 'APIKEY#',
  userPeople: 'PERSON#',
  userAlbums: 'ALBUM#',
  userSharedLinks: 'SHAREDLINK#',
  assetFaces: 'FACE#',
  members: 'ASSET#',
} as const;
