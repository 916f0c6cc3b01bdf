// The kinds of API configuration entries (/admin/device/apiConfig): a partner that calls our API
// with signed requests, or an outside AI service that designs orders in place of the built-in
// engine (docs/ai-vendor.md), or a language model (an OpenAI-compatible chat completion URL and
// key; the remark names the model) that the AI coding helper asks to describe modules. Pure: the
// back office page reads it.
export const API_CONFIG_KINDS = ['partner', 'aiService', 'llm'] as const;
export type ApiConfigKind = (typeof API_CONFIG_KINDS)[number];
export const DEFAULT_API_CONFIG_KIND: ApiConfigKind = 'partner';
