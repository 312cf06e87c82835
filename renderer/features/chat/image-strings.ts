/**
 * UI strings of pictures in the chat (attaching, thumbnails, the large view, the vision switch), kept
 * beside them and spread into the locale tables in renderer/i18n/: the `Messages` type still demands
 * every key in every language.
 */
export const imagesEn = {
  'images.attach': 'Attach image',
  'images.attached': 'Attached images',
  'images.remove': 'Remove image {name}',
  'images.refused':
    'The model {model} does not take images, so this message cannot be sent with them. Remove them, or choose a model that takes images (Settings → Model provider → “Supports images”).',
  'images.notAnImage': 'Only PNG, JPEG, GIF and WebP pictures can be attached.',
  'images.tooLarge': 'That picture is too large to attach (at most 15 MB each, 20 MB per message).',
  'images.unreadable': 'That picture could not be read.',
  'images.tooMany': 'A message takes at most 6 pictures.',
  'images.scaled': 'Sent scaled down to {width}×{height}',
  'images.open': 'Open image {name}',
  'images.viewer': 'Image {name}',
  'images.close': 'Close',
  'images.missing': 'This picture is not kept any more.',
  'images.loading': 'Loading picture…',
  'images.supports': 'Supports images',
  'images.supportsExplain':
    'Send pictures attached to messages to this model. Turn on only for a vision model (for example llava, qwen2.5-vl, gemma3).',
  'images.detected': 'The server says this model takes images.',
} as const;

export const imagesRu: Record<keyof typeof imagesEn, string> = {
  'images.attach': 'Прикрепить изображение',
  'images.attached': 'Прикреплённые изображения',
  'images.remove': 'Убрать изображение {name}',
  'images.refused':
    'Модель {model} не принимает изображения, поэтому сообщение с ними отправить нельзя. Уберите их или выберите модель, которая понимает изображения (Настройки → Провайдер модели → «Понимает изображения»).',
  'images.notAnImage': 'Прикрепить можно только изображения PNG, JPEG, GIF и WebP.',
  'images.tooLarge': 'Изображение слишком большое (не больше 15 МБ каждое и 20 МБ на сообщение).',
  'images.unreadable': 'Не удалось прочитать изображение.',
  'images.tooMany': 'В сообщении может быть не больше 6 изображений.',
  'images.scaled': 'Отправлено уменьшенным до {width}×{height}',
  'images.open': 'Открыть изображение {name}',
  'images.viewer': 'Изображение {name}',
  'images.close': 'Закрыть',
  'images.missing': 'Это изображение больше не хранится.',
  'images.loading': 'Загрузка изображения…',
  'images.supports': 'Понимает изображения',
  'images.supportsExplain':
    'Отправлять этой модели изображения из сообщений. Включайте только для модели с распознаванием изображений (например, llava, qwen2.5-vl, gemma3).',
  'images.detected': 'Сервер сообщает, что модель понимает изображения.',
};

export const imagesZh: Record<keyof typeof imagesEn, string> = {
  'images.attach': '附加图片',
  'images.attached': '已附加的图片',
  'images.remove': '移除图片 {name}',
  'images.refused':
    '模型 {model} 不接受图片，因此无法连同图片发送此消息。请移除图片，或选择支持图片的模型（设置 → 模型提供方 → “支持图片”）。',
  'images.notAnImage': '只能附加 PNG、JPEG、GIF 和 WebP 图片。',
  'images.tooLarge': '图片太大，无法附加（每张最多 15 MB，每条消息最多 20 MB）。',
  'images.unreadable': '无法读取该图片。',
  'images.tooMany': '一条消息最多附加 6 张图片。',
  'images.scaled': '已缩小到 {width}×{height} 后发送',
  'images.open': '打开图片 {name}',
  'images.viewer': '图片 {name}',
  'images.close': '关闭',
  'images.missing': '此图片已不再保存。',
  'images.loading': '正在加载图片…',
  'images.supports': '支持图片',
  'images.supportsExplain': '将消息中附加的图片发送给此模型。仅对视觉模型开启（例如 llava、qwen2.5-vl、gemma3）。',
  'images.detected': '服务器表明此模型接受图片。',
};
