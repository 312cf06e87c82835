import { useI18nStore } from '../../i18n/i18n';
import type { Locale } from '../../i18n/i18n';

// Kept beside the feature (not in i18n/en.ts) so this feature merges without touching the shared
// dictionaries; same shape and the same {param} syntax.
const en = {
  'transfers.offer': 'The assistant offers {name} ({size})',
  'transfers.save': 'Save…',
  'transfers.download': 'Download',
  'transfers.dismiss': 'Dismiss',
  'transfers.upload': 'Upload…',
  'transfers.uploadTitle': 'Copy files from your computer into the workspace folder uploads/',
  'transfers.dropHere': 'Drop files to copy them into uploads/',
  'transfers.uploaded': 'Uploaded {name} to {path}',
  'transfers.uploadFailed': 'Could not upload {name}: {message}',
  'transfers.saveFailed': 'Could not save {name}: {message}',
};
export type TransfersMessageKey = keyof typeof en;

const ru: Record<TransfersMessageKey, string> = {
  'transfers.offer': 'Ассистент предлагает файл {name} ({size})',
  'transfers.save': 'Сохранить…',
  'transfers.download': 'Скачать',
  'transfers.dismiss': 'Скрыть',
  'transfers.upload': 'Загрузить…',
  'transfers.uploadTitle': 'Скопировать файлы с компьютера в папку uploads/ рабочей папки',
  'transfers.dropHere': 'Отпустите файлы, чтобы скопировать их в uploads/',
  'transfers.uploaded': 'Файл {name} загружен в {path}',
  'transfers.uploadFailed': 'Не удалось загрузить {name}: {message}',
  'transfers.saveFailed': 'Не удалось сохранить {name}: {message}',
};

const zh: Record<TransfersMessageKey, string> = {
  'transfers.offer': '助手提供文件 {name}（{size}）',
  'transfers.save': '保存…',
  'transfers.download': '下载',
  'transfers.dismiss': '忽略',
  'transfers.upload': '上传…',
  'transfers.uploadTitle': '将电脑上的文件复制到工作区的 uploads/ 文件夹',
  'transfers.dropHere': '松开以将文件复制到 uploads/',
  'transfers.uploaded': '已将 {name} 上传到 {path}',
  'transfers.uploadFailed': '无法上传 {name}：{message}',
  'transfers.saveFailed': '无法保存 {name}：{message}',
};

export const transfersMessages: Record<Locale, Record<TransfersMessageKey, string>> = { en, ru, zh };

export function useTransfersT(): (key: TransfersMessageKey, params?: Record<string, string | number>) => string {
  const locale = useI18nStore((state) => state.locale);
  return (key, params) =>
    transfersMessages[locale][key].replace(/\{(\w+)\}/g, (whole, name: string) =>
      params !== undefined && Object.hasOwn(params, name) ? String(params[name]) : whole,
    );
}
