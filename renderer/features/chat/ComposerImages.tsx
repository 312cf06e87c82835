import { CloseButton } from '../../app/CloseButton';
import { useT } from '../../i18n/i18n';
import type { PreparedImage } from './prepare-image';

/** The pictures waiting in the composer, each with a button that removes it. */
export function ComposerImages({
  images,
  onRemove,
}: {
  readonly images: readonly PreparedImage[];
  readonly onRemove: (id: string) => void;
}) {
  const t = useT();
  if (images.length === 0) return null;
  return (
    <ul className="image-thumbnails composer-images" aria-label={t('images.attached')}>
      {images.map((image) => {
        const shown = image.scaled ?? image;
        return (
          <li key={image.id} className="image-thumbnail">
            <img src={`data:${shown.mime};base64,${shown.data}`} alt={image.name} />
            {image.scaled !== undefined && (
              <span className="image-thumbnail-note">
                {t('images.scaled', { width: image.scaled.width, height: image.scaled.height })}
              </span>
            )}
            <CloseButton
              look="small"
              className="image-thumbnail-remove"
              label={t('images.remove', { name: image.name })}
              onClick={() => onRemove(image.id)}
            />
          </li>
        );
      })}
    </ul>
  );
}
