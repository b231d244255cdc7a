/** Server texts by stable code, zh-CN and en; `{name}` placeholders are filled from the params. */
export type MessageTable = Readonly<
  Record<string, { readonly 'zh-CN': string; readonly en: string }>
>;
