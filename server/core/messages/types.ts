export type Lang = 'zh' | 'en' | 'de';
/** One message in every language; `{name}` placeholders are filled by t(). */
export type Catalog = Record<string, Record<Lang, string>>;
