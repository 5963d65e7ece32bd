import { fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { DatasetReport } from '@sightline/contracts';
import { describe, expect, it } from 'vitest';
import { renderRoutes } from '../../../test/render';
import { REPORT_ROWS_PER_PAGE, ReportTable } from './report-table';

const report: DatasetReport = {
  errors: [
    { file: 'labels/train/x.txt', line: 2, code: 'label/class-id', message: 'Class id 7 is not in names (0..1).' },
    { file: 'labels/train/x.txt', line: 3, code: 'label/value-count', message: 'Expected 5 values (class cx cy w h), found 3.' },
  ],
  warnings: [
    { code: 'dataset/no-test', message: 'There is no test split.' },
    { file: 'images/val/y.png', code: 'image/unlabelled', message: 'No label file (expected "labels/val/y.txt").' },
  ],
  errorCount: 2,
  warningCount: 2,
  omittedErrors: 0,
  omittedWarnings: 0,
  countsByCode: { 'label/class-id': 1, 'label/value-count': 1, 'dataset/no-test': 1, 'image/unlabelled': 1 },
};

function renderTable(r: DatasetReport = report) {
  renderRoutes([{ path: '/', element: <ReportTable report={r} downloadUrl="/v1/datasets/d1/report?format=txt" downloadName="broken-report.txt" /> }], {
    user: null,
  });
}
const rows = () => screen.getAllByTestId('report-row');

describe('processing report table', () => {
  it('lists errors then warnings with file, line, code and message', () => {
    renderTable();
    expect(rows()).toHaveLength(4);
    const first = within(rows()[0]);
    expect(first.getByText('Error')).toBeInTheDocument();
    expect(first.getByText('labels/train/x.txt')).toBeInTheDocument();
    expect(first.getByText('2')).toBeInTheDocument();
    expect(first.getByText('label/class-id')).toBeInTheDocument();
    expect(first.getByText('Class id 7 is not in names (0..1).')).toBeInTheDocument();
    expect(within(rows()[2]).getByText('(dataset)')).toBeInTheDocument();
    expect(rows().map((r) => r.getAttribute('data-severity'))).toEqual(['error', 'error', 'warning', 'warning']);
  });

  it('filters by severity and by text', async () => {
    renderTable();
    fireEvent.click(screen.getByText('Warnings (2)'));
    expect(rows().map((r) => r.getAttribute('data-severity'))).toEqual(['warning', 'warning']);
    fireEvent.click(screen.getByText('All (4)'));
    await userEvent.type(screen.getByLabelText('Filter the report'), 'value-count');
    expect(rows()).toHaveLength(1);
    expect(within(rows()[0]).getByText('3')).toBeInTheDocument();
    await userEvent.clear(screen.getByLabelText('Filter the report'));
    await userEvent.type(screen.getByLabelText('Filter the report'), 'x.txt:3');
    expect(rows()).toHaveLength(1);
    await userEvent.type(screen.getByLabelText('Filter the report'), 'nothing like this');
    expect(screen.queryAllByTestId('report-row')).toHaveLength(0);
    expect(screen.getByText('No entry matches the filter.')).toBeInTheDocument();
  });

  it('offers the plain-text report as a download', () => {
    renderTable();
    const link = screen.getByRole('link', { name: 'Download .txt' });
    expect(link).toHaveAttribute('href', '/v1/datasets/d1/report?format=txt');
    expect(link).toHaveAttribute('download', 'broken-report.txt');
  });

  it('pages long reports and says how many were not listed', () => {
    const many = Array.from({ length: REPORT_ROWS_PER_PAGE + 5 }, (_, i) => ({
      file: `labels/train/${i}.txt`,
      line: 1,
      code: 'label/out-of-range',
      message: `Value out of range in ${i}`,
    }));
    renderTable({ ...report, errors: many, warnings: [], errorCount: 500, warningCount: 0, omittedErrors: 500 - many.length });
    expect(rows()).toHaveLength(REPORT_ROWS_PER_PAGE);
    expect(screen.getByText(/395 more errors and 0 more warnings were counted but not listed/)).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: '2' }));
    expect(rows()).toHaveLength(5);
  });
});
