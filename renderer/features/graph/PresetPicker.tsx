import { useId } from 'react';
import type { GraphPreset } from './presets.ts';

export interface PresetPickerProps {
  presets: readonly GraphPreset[];
  /** The preset the expression stands for; none while it is the person's own (Advanced). */
  chosen: GraphPreset | undefined;
  onChoose(preset: GraphPreset): void;
}

/** The questions in plain words: a radio group, so arrows move between them. */
export function PresetPicker({ presets, chosen, onChoose }: PresetPickerProps) {
  const id = useId();
  return (
    <fieldset className="graph-presets" aria-describedby={`${id}-hint`}>
      <legend className="field-label">What do you want to see?</legend>
      <div className="graph-preset-list">
        {presets.map((preset) => (
          <label key={preset.id} className={chosen?.id === preset.id ? 'graph-preset is-checked' : 'graph-preset'}>
            <input type="radio" name={`${id}-preset`} value={preset.id} checked={chosen?.id === preset.id} onChange={() => onChoose(preset)} />
            {preset.label}
          </label>
        ))}
      </div>
      <p className="field-hint" id={`${id}-hint`}>
        {chosen
          ? 'Run the query to see the answer; click a node to go further.'
          : presets.length
            ? 'Your own expression is in use (under Advanced); choose a question to replace it.'
            : 'No question fits these start nodes together; use an expression under Advanced.'}
      </p>
    </fieldset>
  );
}
