import type { ComponentPropsWithRef } from 'react';

type ButtonLook = 'primary' | 'danger' | 'small' | 'small-primary';

const lookClasses: Record<ButtonLook, string> = {
  primary: 'button button-primary',
  danger: 'button button-danger',
  small: 'button button-small',
  'small-primary': 'button button-small button-primary',
};

interface ButtonProps extends Omit<ComponentPropsWithRef<'button'>, 'type'> {
  /** Plain when left out; 'primary' for the one action a row leads with, 'danger' for what cannot be undone. */
  readonly look?: ButtonLook;
}

/**
 * The app's push button: `type="button"` always (a press never submits a form by accident) and the
 * look as a word instead of a list of classes; `className` adds a class for its own placement.
 */
export function Button({ look, className, ...rest }: ButtonProps) {
  const lookClass = look === undefined ? 'button' : lookClasses[look];
  return (
    <button {...rest} type="button" className={className === undefined ? lookClass : `${lookClass} ${className}`} />
  );
}
