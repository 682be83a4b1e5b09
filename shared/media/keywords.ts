/**
 * The keywords a file (and its sidecar) carries, as Immich v3's metadata job turns them into its
 * hierarchical tags (`getTagList` in server/src/services/metadata.service.ts, then `upsertTags`):
 * digiKam's `TagsList` (levels joined by `/`), else Lightroom's `HierarchicalSubject` (levels
 * joined by `|`; a `/` inside a level stays in the name, as `|`), else the keywords (exiftool's
 * MWG `Keywords`, which Immich reads with `useMWG`: XMP `dc:subject`, else IPTC `Keywords`, as
 * Picasa writes them). A tag name read from the sidecar wins over the file's, as every tag does.
 *
 * Phones and photo managers write empty, padded and repeated keywords: each level is trimmed, an
 * empty level (`a||b`, a trailing separator) is dropped, and a path met twice is one tag
 * (docs/immich-compatibility.md, "Tags").
 */
import { limits } from '../model/limits.ts';

type Tags = Record<string, unknown>;

/** exifr gives a one-item XMP list as the item itself, and numbers as numbers. */
const values = (value: unknown): string[] => {
  const list = Array.isArray(value) ? value : [value];
  return list.flatMap((each) =>
    typeof each === 'string' ? [each] : typeof each === 'number' && Number.isFinite(each) ? [String(each)] : [],
  );
};

/** The levels of a path, trimmed, without empty ones. */
const levels = (path: string): string[] =>
  path
    .split('/')
    .map((level) => level.trim())
    .filter(Boolean);

export interface KeywordSources {
  /** The file's own tags (its XMP and IPTC, flattened): `TagsList`, `HierarchicalSubject`, `Subject`, `Keywords`. */
  file: Tags;
  /** The sidecar's XMP, flattened the same way. */
  sidecar?: Tags;
}

/**
 * The tag paths (`Places/Italy/Rome`) of a file's keywords, in the order written, each once: at
 * most `limits.fileTags` tags in all (a path counts each of its levels, parents being tags too),
 * a path longer than `limits.name` characters left out.
 */
export const keywordPaths = ({ file, sidecar = {} }: KeywordSources): string[] => {
  const pick = (name: string): unknown => (name in sidecar ? sidecar[name] : file[name]);
  let paths: string[];
  // Truthiness, as Immich's: an empty list still chooses its tag; an empty text does not.
  if (pick('TagsList')) paths = values(pick('TagsList'));
  else if (pick('HierarchicalSubject'))
    paths = values(pick('HierarchicalSubject')).map((path) =>
      path
        .split('|')
        .map((level) => level.replaceAll('/', '|'))
        .join('/'),
    );
  else {
    // MWG Keywords of each file: its XMP dc:subject, else its IPTC keywords.
    const keywords = (tags: Tags): unknown => tags.Subject ?? tags.Keywords;
    const chosen = keywords(sidecar) ?? keywords(file);
    paths = values(chosen);
  }
  const kept: string[] = [];
  const tags = new Set<string>();
  for (const path of paths) {
    const parts = levels(path);
    const value = parts.join('/');
    if (!value || value.length > limits.name || kept.includes(value)) continue;
    const added = parts.map((_, index) => parts.slice(0, index + 1).join('/')).filter((prefix) => !tags.has(prefix));
    if (tags.size + added.length > limits.fileTags) break;
    for (const prefix of added) tags.add(prefix);
    kept.push(value);
  }
  return kept;
};
