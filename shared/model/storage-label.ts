import sanitize from 'sanitize-filename';

/**
 * Immich's `toSanitized`: every `.` removed, then sanitize-filename (the library Immich uses), so
 * `my.label/../x` becomes `mylabelx`. Any non-string, `null` included, becomes `""` (Immich's quirk).
 * Both generations' request schemas and the user service use it (a file of its own, so that only
 * they bundle the library).
 */
export const sanitizeStorageLabel = (value: unknown): string => sanitize((typeof value === 'string' ? value : '').replaceAll('.', ''));
