// The order form's prescription control (src/modules/order/PrescriptionField.tsx): the lab's
// default until the user takes their own, teeth shown in the user's numbering (FDI or Universal)
// and stored as Universal numbers, a wire's teeth follow its type, and the check the server runs.
import './kit-dom.ts';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { DEFAULT_PRESCRIPTION, type Prescription } from '../../common/prescription.ts';
import { PrescriptionField, prescriptionFits } from '../../src/modules/order/PrescriptionField.tsx';
import { setToothNumbering } from '../../src/ui/toothNumbering.ts';
import './kit-harness.tsx';

afterEach(() => {
  cleanup();
  setToothNumbering('fdi');
});

let last: Prescription | null = null;
function Harness({ initial }: { initial: Prescription | null }) {
  const [value, setValue] = useState<Prescription | null>(initial);
  return (
    <I18nProvider i18n={i18n}>
      <PrescriptionField
        value={value}
        onChange={(v) => {
          last = v;
          setValue(v);
        }}
      />
    </I18nProvider>
  );
}
const selected = (el: HTMLElement) => (el as HTMLSelectElement).selectedOptions[0]!.textContent;

describe('PrescriptionField', () => {
  it("starts on the lab's default; unticking it takes the default as the order's own", () => {
    render(<Harness initial={null} />);
    expect(screen.queryByTestId('prescription-upper')).toBeNull();
    fireEvent.click(screen.getByLabelText(/lab's default/));
    expect(last).toEqual(DEFAULT_PRESCRIPTION);
    expect(screen.getByTestId('prescription-upper')).toBeTruthy();
  });

  it('shows teeth in FDI or Universal and stores Universal numbers', () => {
    render(<Harness initial={structuredClone(DEFAULT_PRESCRIPTION)} />);
    const upper = screen.getByTestId('prescription-upper');
    const firstClasp = within(upper).getAllByTestId('prescription-wire')[0]!;
    const tooth = within(firstClasp).getByLabelText('Tooth');
    // Universal 3 is FDI 16.
    expect(selected(tooth)).toBe('16');
    act(() => setToothNumbering('universal'));
    expect(selected(within(within(screen.getByTestId('prescription-upper')).getAllByTestId('prescription-wire')[0]!).getByLabelText('Tooth'))).toBe('3');
    fireEvent.change(within(within(screen.getByTestId('prescription-upper')).getAllByTestId('prescription-wire')[0]!).getByLabelText('Tooth'), { target: { value: '2' } });
    expect(last!.upper!.wires[0]).toEqual({ type: 'singleArmClasp', teeth: [2] });
  });

  it("a new type gets its number of teeth; a jaw can be left out; the server's check runs here too", () => {
    render(<Harness initial={structuredClone(DEFAULT_PRESCRIPTION)} />);
    const wire = within(screen.getByTestId('prescription-upper')).getAllByTestId('prescription-wire')[0]!;
    fireEvent.change(within(wire).getByLabelText('Wire type'), { target: { value: 'arrowClasp' } });
    expect(last!.upper!.wires[0]!.type).toBe('arrowClasp');
    expect(last!.upper!.wires[0]!.teeth).toHaveLength(2);
    expect(prescriptionFits(last)).toBe(true);
    const lower = screen.getByTestId('prescription-lower');
    fireEvent.click(within(lower).getByLabelText('Lower jaw'));
    expect(last!.lower).toBeNull();
    expect(prescriptionFits({ upper: { wires: [{ type: 'arrowClasp', teeth: [3, 5] }], base: true, diameter: 0.8 }, lower: null })).toBe(false);
  });
});
