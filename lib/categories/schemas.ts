import * as classic from 'zod';
import * as z from 'zod/mini';
import { requiredText } from '../domain/fields';
import { schema } from '../domain/schema';
import { categorySchema, MAX_CATEGORY_NAME } from './model';

/** POST /inventory/categories and PATCH /inventory/categories/{id}: the name (unique in the tenant, whatever its case and accents). */
export const categoryBody = /* @__PURE__ */ schema(() => z.strictObject({ name: requiredText(MAX_CATEGORY_NAME) }));
export type CategoryBody = z.output<typeof categoryBody>;

/** A category as the API shows it. */
export const categoryView = /* @__PURE__ */ schema(() => classic.object(categorySchema.shape));
export type CategoryView = classic.infer<typeof categoryView>;

export const categoryListView = /* @__PURE__ */ schema(() => classic.array(categoryView));
