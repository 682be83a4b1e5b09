/**
 * The avatar colours both generations answer with (docs/immich-compatibility.md, "Two generations"):
 * apart from the request rules of user.ts, so a function that only answers users bundles none of them.
 */
export const avatarColors = ['primary', 'pink', 'red', 'yellow', 'blue', 'green', 'purple', 'orange', 'gray', 'amber'] as const;
export type AvatarColor = (typeof avatarColors)[number];

/** Immich derives the colour from the email: the sum of its code points, modulo 10. */
export const avatarColorFor = (email: string): AvatarColor => {
  let sum = 0;
  for (const character of email) sum += character.codePointAt(0) ?? 0;
  return avatarColors[sum % avatarColors.length] ?? 'primary';
};
