import { useEffect, useState } from 'react';
import type { ImageRef } from '../../../shared/chat-images';
import { Modal } from '../../app/Modal';
import { useT } from '../../i18n/i18n';
import { familiar } from '../../ipc/familiar';

/** Pictures already fetched, by conversation and hash: a hash names the same bytes for good. */
const fetched = new Map<string, Promise<string | null>>();

function pictureUrl(conversationId: string, hash: string): Promise<string | null> {
  const key = `${conversationId}/${hash}`;
  let url = fetched.get(key);
  if (url === undefined) {
    url = familiar
      .invoke('conversations.image', { id: conversationId, hash })
      .then((result) => (result.ok ? `data:${result.value.mime};base64,${result.value.data}` : null));
    fetched.set(key, url);
    // A failure is not remembered: the next look may find the picture (a restore from the trash).
    void url.then((value) => {
      if (value === null) fetched.delete(key);
    });
  }
  return url;
}

/** A picture's data URL once fetched: undefined while loading, null when it is not kept. */
function usePicture(conversationId: string, hash: string | null): string | null | undefined {
  const [url, setUrl] = useState<{ hash: string | null; url: string | null } | undefined>(undefined);
  useEffect(() => {
    if (hash === null) return undefined;
    let live = true;
    void pictureUrl(conversationId, hash).then((value) => {
      if (live) setUrl({ hash, url: value });
    });
    return () => {
      live = false;
    };
  }, [conversationId, hash]);
  return url?.hash === hash ? url.url : undefined;
}

const nameOf = (ref: ImageRef, index: number) => ref.name ?? `${index + 1}`;

function Thumbnail({
  conversationId,
  image,
  name,
  onOpen,
}: {
  readonly conversationId: string;
  readonly image: ImageRef;
  readonly name: string;
  readonly onOpen: () => void;
}) {
  const t = useT();
  // The smaller copy when there is one: a thumbnail does not need the original's megabytes.
  const url = usePicture(conversationId, image.sent?.hash ?? image.hash);
  return (
    <li className="image-thumbnail">
      <button type="button" className="image-thumbnail-open" aria-label={t('images.open', { name })} onClick={onOpen}>
        {url === undefined ? (
          <span className="image-thumbnail-note">{t('images.loading')}</span>
        ) : url === null ? (
          <span className="image-thumbnail-note">{t('images.missing')}</span>
        ) : (
          <img
            src={url}
            alt={name}
            width={image.sent?.width ?? image.width}
            height={image.sent?.height ?? image.height}
          />
        )}
      </button>
    </li>
  );
}

function Viewer({
  conversationId,
  image,
  name,
  onClose,
}: {
  readonly conversationId: string;
  readonly image: ImageRef | null;
  readonly name: string;
  readonly onClose: () => void;
}) {
  const t = useT();
  const url = usePicture(conversationId, image?.hash ?? null);
  return (
    <Modal
      open={image !== null}
      onClose={onClose}
      title={t('images.viewer', { name })}
      closeLabel={t('images.close')}
      className="image-viewer"
    >
      {url === undefined ? (
        <p>{t('images.loading')}</p>
      ) : url === null ? (
        <p>{t('images.missing')}</p>
      ) : (
        <img className="image-viewer-picture" src={url} alt={name} />
      )}
    </Modal>
  );
}

/** The pictures of a user message: thumbnails that open large (the original) on click. */
export function MessageImages({
  conversationId,
  images,
}: {
  readonly conversationId: string;
  readonly images: readonly ImageRef[];
}) {
  const t = useT();
  const [open, setOpen] = useState<number | null>(null);
  const shown = open === null ? null : (images[open] ?? null);
  return (
    <>
      <ul className="image-thumbnails message-images" aria-label={t('images.attached')}>
        {images.map((image, index) => (
          <Thumbnail
            key={`${image.hash}-${index}`}
            conversationId={conversationId}
            image={image}
            name={nameOf(image, index)}
            onOpen={() => setOpen(index)}
          />
        ))}
      </ul>
      <Viewer
        conversationId={conversationId}
        image={shown}
        name={shown === null || open === null ? '' : nameOf(shown, open)}
        onClose={() => setOpen(null)}
      />
    </>
  );
}
