import type { ReactNode } from 'react';

interface FormErrorProps {
  /** What went wrong; nothing is shown for null, undefined or false. */
  readonly message: ReactNode;
  /** A span inside a field (beside its input) rather than a paragraph of its own. */
  readonly inline?: boolean;
  /** For aria-describedby on the control the error is about. */
  readonly id?: string;
  readonly testId?: string;
}

/** An error beside the control or form that caused it, announced at once (role="alert"). */
export function FormError({ message, inline = false, id, testId }: FormErrorProps) {
  if (message === null || message === undefined || message === false) return null;
  const Tag = inline ? 'span' : 'p';
  return (
    <Tag id={id} className="form-error" role="alert" data-testid={testId}>
      {message}
    </Tag>
  );
}
