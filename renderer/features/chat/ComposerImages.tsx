import { useT } from '../../i18n/i18n';
import { AttachedList } from './AttachedList';
import type { AttachedItems } from './AttachedList';
import type { PreparedImage } from './prepare-image';

/** The pictures waiting in the composer, each with a button that removes it. */
export function ComposerImages({ items, onRemove }: AttachedItems<PreparedImage>) {
  const t = useT();
  return (
    <AttachedList
      items={items}
      label={t('images.attached')}
      className="image-thumbnails composer-images"
      itemClassName="image-thumbnail"
      removeClassName="image-thumbnail-remove"
      removeLabel={(image) => t('images.remove', { name: image.name })}
      onRemove={onRemove}
    >
      {(image) => {
        const shown = image.scaled ?? image;
        return (
          <>
            <img src={`data:${shown.mime};base64,${shown.data}`} alt={image.name} />
            {image.scaled !== undefined && (
              <span className="image-thumbnail-note">
                {t('images.scaled', { width: image.scaled.width, height: image.scaled.height })}
              </span>
            )}
          </>
        );
      }}
    </AttachedList>
  );
}
