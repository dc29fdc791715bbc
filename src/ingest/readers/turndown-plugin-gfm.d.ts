declare module '@joplin/turndown-plugin-gfm' {
  import type TurndownService from 'turndown';
  /** Tables, strikethrough and task lists, as GitHub-flavoured Markdown. */
  export const gfm: TurndownService.Plugin;
  export const tables: TurndownService.Plugin;
}
