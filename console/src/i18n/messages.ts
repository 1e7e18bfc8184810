/**
 * The console's two languages and the shape of its texts, apart from React so that the
 * browser tests' page objects can read the same texts (test/e2e/console/pages/texts.ts).
 *
 * Each area keeps its own texts beside its pages (`messages.ts`, made with defineMessages), so
 * a page and its words change together; both languages must have every key (the type says so).
 */
export const LOCALES = ['pt-BR', 'en'] as const;
export type Locale = (typeof LOCALES)[number];

/** The browser's first preference among the two languages; Portuguese when it names neither. */
export function preferredLocale(languages: readonly string[]): Locale {
  for (const language of languages) {
    const tag = language.toLowerCase();
    if (tag.startsWith('pt')) return 'pt-BR';
    if (tag.startsWith('en')) return 'en';
  }
  return 'pt-BR';
}

export type Text = string | ((...args: never[]) => string);
export type Messages<T extends Record<string, Text>> = Record<Locale, T>;

/** An area's texts in both languages; the English object's shape is checked against the Portuguese one. */
export function defineMessages<T extends Record<string, Text>>(messages: { 'pt-BR': T; en: { [K in keyof T]: T[K] } }): Messages<T> {
  return messages;
}
