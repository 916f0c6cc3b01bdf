// The order form's judgement of an uploaded model's health (src/modules/order/modelHealth.ts):
// open edges of a scan's outer rim alone are fine; holes beyond it, loose shells, non-manifold or
// flipped edges and degenerate triangles give a warning, in zh, en and de.
import { i18n } from '@lingui/core';
import { describe, expect, it } from 'vitest';
import { healthIssues, healthWarning, type ModelHealth } from '../../src/modules/order/modelHealth.ts';
import { messages as de } from '../../src/locales/de/messages.po';
import { messages as en } from '../../src/locales/en/messages.po';
import { messages as zh } from '../../src/locales/zh/messages.po';

i18n.load({ en, zh, de });

const healthy: ModelHealth = {
  triangles: 1000, vertices: 502, degenerateTriangles: 0, openEdges: 0, boundaryLoops: 0, nonManifoldEdges: 0, flippedEdges: 0, shells: 1,
};

describe('model health', () => {
  it('a closed model and an open scan with only its outer rim pass without a warning', () => {
    expect(healthIssues(healthy)).toBeNull();
    expect(healthIssues({ ...healthy, openEdges: 640, boundaryLoops: 1 })).toBeNull();
    expect(healthIssues(null)).toBeNull();
  });

  it('holes beyond the rim, loose shells, non-manifold and flipped edges and degenerate triangles are damage', () => {
    expect(healthIssues({ ...healthy, openEdges: 120, boundaryLoops: 4 })).toMatchObject({ holes: 3, openEdges: 120 });
    expect(healthIssues({ ...healthy, shells: 3 })).toMatchObject({ shells: 3, holes: 0 });
    expect(healthIssues({ ...healthy, nonManifoldEdges: 2 })).toMatchObject({ nonManifoldEdges: 2 });
    expect(healthIssues({ ...healthy, flippedEdges: 5 })).toMatchObject({ flippedEdges: 5 });
    expect(healthIssues({ ...healthy, degenerateTriangles: 1 })).toMatchObject({ degenerateTriangles: 1 });
  });

  it('says what is wrong in the user language', () => {
    const issues = healthIssues({ ...healthy, openEdges: 1200, boundaryLoops: 4, shells: 3, degenerateTriangles: 1 })!;
    i18n.activate('en');
    expect(healthWarning(issues, 'en')).toBe('The model has 3 holes (1,200 open edges), 3 shells, and 1 degenerate triangle: check the scan.');
    i18n.activate('de');
    expect(healthWarning(issues, 'de')).toBe('Das Modell hat 3 Löcher (1.200 offene Kanten), 3 getrennte Schalen und 1 degeneriertes Dreieck: Bitte den Scan prüfen.');
    i18n.activate('zh');
    expect(healthWarning(issues, 'zh')).toBe('模型有3 个孔洞（1,200 条开放边）、3 个独立壳体和1 个退化三角形：请检查扫描数据。');
    i18n.activate('en');
    expect(healthWarning({ ...issues, holes: 0, shells: 1, degenerateTriangles: 0, nonManifoldEdges: 1 }, 'en')).toBe('The model has 1 non-manifold edge: check the scan.');
  });
});
