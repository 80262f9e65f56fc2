import type { Migration, MigrationProvider } from 'kysely';
import type { DialectName } from '../dialect.js';
import { initial } from './0001-initial.js';
import { webhooks } from './0002-webhooks.js';
import { idempotency } from './0003-idempotency.js';
import { listPerformance } from './0004-list-performance.js';
import { vehicles } from './0005-vehicles.js';
import { activitiesFinancial } from './0006-activities-financial.js';
import { usersSessions } from './0007-users-sessions.js';
import { authEpoch } from './0008-auth-epoch.js';
import { boardTotals } from './0009-board-totals.js';
import { teamSearch } from './0010-team-search.js';
import { vehiclePriceCounts } from './0011-vehicle-price-counts.js';
import { exactSearch } from './0012-exact-search.js';
import { phaseLabels } from './0013-phase-labels.js';
import { ai } from './0014-ai.js';
import { leads } from './0016-leads.js';
import { lossReasons } from './0017-loss-reasons.js';
import { stores } from './0018-stores.js';

/** One ordered migration set; each migration may ask for the few dialect-specific column types. */
export function migrationProvider(dialect: DialectName): MigrationProvider {
  return {
    getMigrations(): Promise<Record<string, Migration>> {
      return Promise.resolve({
        '0001-initial': initial(dialect),
        '0002-webhooks': webhooks(dialect),
        '0003-idempotency': idempotency(dialect),
        '0004-list-performance': listPerformance(dialect),
        '0005-vehicles': vehicles(dialect),
        '0006-activities-financial': activitiesFinancial(dialect),
        '0007-users-sessions': usersSessions(dialect),
        '0008-auth-epoch': authEpoch(dialect),
        '0009-board-totals': boardTotals(dialect),
        '0010-team-search': teamSearch(dialect),
        '0011-vehicle-price-counts': vehiclePriceCounts(dialect),
        '0012-exact-search': exactSearch(dialect),
        '0013-phase-labels': phaseLabels(dialect),
        '0014-ai': ai(dialect),
        '0016-leads': leads(dialect),
        '0017-loss-reasons': lossReasons(dialect),
        '0018-stores': stores(dialect),
      });
    },
  };
}
