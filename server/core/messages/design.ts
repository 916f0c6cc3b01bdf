// Messages of the design editor's calls (/admin/design/*).
import type { Catalog } from './types.ts';

export const designMessages = {
  designStale: {
    en: 'The design was changed elsewhere (another tab or user saved version {version}); reload the design before saving again',
    zh: '设计已在别处被修改（另一个标签页或用户保存了版本 {version}），请重新加载设计后再保存',
    de: 'Der Entwurf wurde anderswo geändert (ein anderer Tab oder Benutzer hat Version {version} gespeichert); bitte den Entwurf neu laden, bevor Sie erneut speichern',
  },
  designTooLarge: {
    en: 'The design is too large to save ({size} KB, at most {max} KB)',
    zh: '设计过大，无法保存（{size} KB，最多 {max} KB）',
    de: 'Der Entwurf ist zu groß zum Speichern ({size} KB, höchstens {max} KB)',
  },
  designSchemaUnsupported: {
    en: 'This design was made by a newer version of the editor (format {schemaVersion}); please reload the page',
    zh: '此设计由更新版本的编辑器创建（格式 {schemaVersion}），请刷新页面',
    de: 'Dieser Entwurf stammt aus einer neueren Version des Editors (Format {schemaVersion}); bitte die Seite neu laden',
  },
  designOrderNotFound: {
    en: 'The order does not exist or you may not design it',
    zh: '订单不存在或您无权设计该订单',
    de: 'Der Auftrag existiert nicht oder Sie dürfen ihn nicht bearbeiten',
  },
} satisfies Catalog;
