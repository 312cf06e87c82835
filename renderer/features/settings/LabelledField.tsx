import type { ReactNode } from 'react';

interface LabelledFieldProps {
  /** The control's id: the label names it. */
  readonly id: string;
  readonly label: ReactNode;
  /** 'row': label beside the control; 'column': label above it. */
  readonly layout: 'row' | 'column';
  /** The control, then anything that belongs under it (an error, an explanation). */
  readonly children: ReactNode;
}

/** A settings control with its visible label. */
export function LabelledField({ id, label, layout, children }: LabelledFieldProps) {
  return (
    <div className={layout === 'row' ? 'field-row' : 'field-column'}>
      <label htmlFor={id}>{label}</label>
      {children}
    </div>
  );
}
