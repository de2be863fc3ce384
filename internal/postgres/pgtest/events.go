package pgtest

// Events is every recorded lead event as a FROM item named e, dispatched or not: those still in
// the outbox and those the dispatch moved to lead_events (an event is in exactly one of the two,
// as the dispatch moves it in one statement). Its columns are id, company_id, lead_id, type,
// created_at and xmin, the transaction that wrote the row.
const Events = `(SELECT id, company_id, lead_id, type, created_at, xmin FROM event_outbox
    UNION ALL SELECT id, company_id, lead_id, type, created_at, xmin FROM lead_events) e`
