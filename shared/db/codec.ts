import * as v from 'valibot';

type Item = Record<string, unknown>;

/** An item that does not have its entity's shape: a bug or a damaged table, never a client's fault (500). */
export class CorruptItemError extends Error {
  constructor(entity: string, item: Item, issues: readonly v.BaseIssue<unknown>[]) {
    const where = `${String(item.pk)} / ${String(item.sk)}`;
    const what = issues.map((issue) => `${issue.path?.map((step) => String(step.key)).join('.') ?? ''}: ${issue.message}`).join('; ');
    super(`Stored ${entity} ${where} is not valid: ${what}`);
    this.name = 'CorruptItemError';
  }
}

/**
 * How one entity is read: the item is checked against the entity's schema (shared/model) and
 * comes out as its record, with the key, index and type attributes dropped (the schemas are
 * `v.object`s, which keep only their own fields). `rename` maps stored attribute names back to
 * the record's where they differ (an asset's type is stored as `assetType`, since `type` names
 * the entity on every item). `upgrade` reads an item written in an earlier shape as the current
 * one (defaults on read, so no migration is needed: docs/data-model.md, "Earlier shapes").
 */
export const codec = <S extends v.GenericSchema<unknown, unknown>>(
  entity: string,
  schema: S,
  rename: Readonly<Record<string, string>> = {},
  upgrade?: (item: Item) => Item,
) => {
  const renamed = Object.entries(rename);
  return {
    entity,
    read(item: Item): v.InferOutput<S> {
      const current = upgrade ? upgrade(item) : item;
      const input =
        renamed.length === 0 ? current : { ...current, ...Object.fromEntries(renamed.map(([stored, field]) => [field, current[stored]])) };
      const result = v.safeParse(schema, input);
      if (!result.success) throw new CorruptItemError(entity, item, result.issues);
      return result.output;
    },
  };
};
