import * as v from 'valibot';
import { limits } from '../model/limits.ts';
import { as, booleanish, dto, optional, rules, uuid } from './common.ts';

const datePattern = /^(\d{4})-(\d{2})-(\d{2})$/;

/** luxon `DateTime.fromFormat(value, 'yyyy-MM-dd')` is valid: the pattern and a real calendar day. */
const isCalendarDate = (value: unknown): value is string => {
  if (typeof value !== 'string') return false;
  const match = datePattern.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
};

const today = (): string => new Date().toISOString().slice(0, 10);

/**
 * `PersonUpdateDto` of v1.100: birthDate `@Optional({nullable:true}) @IsDateStringFormat('yyyy-MM-dd')
 * @MaxDateString(now)`, name `@Optional() @IsString()`, isHidden `@ValidateBoolean({optional:true})`,
 * featureFaceAssetId `@Optional() @IsUUID('4')`.
 */
export const PersonUpdateDto = dto({
  name: v.optional(v.pipe(v.unknown(), rules.maxLength(limits.name), rules.isString, as<string>())),
  birthDate: optional(
    v.pipe(
      v.unknown(),
      v.check(isCalendarDate, '$property must be a string in the format yyyy-MM-dd'),
      v.check((x: unknown) => !isCalendarDate(x) || x <= today(), 'Birth date cannot be in the future'),
      as<string>(),
    ),
  ),
  isHidden: v.optional(booleanish()),
  featureFaceAssetId: v.optional(uuid()),
});
export type PersonUpdateInput = v.InferOutput<typeof PersonUpdateDto>;

/** `PersonSearchDto`: `withHidden` (query string boolean). */
export const PersonSearchDto = dto({ withHidden: v.optional(booleanish()) });
