import { httpHandler } from '../../lib/http/handler';
import * as classic from 'zod';
import { describeRoute } from '../../lib/http/route-docs';
import * as routes from '../../lib/routes';
import { transferBatchView, transferBody, transferView } from '../../lib/transfers/schemas';
import { createTransfers } from '../../lib/transfers/service';

export const handler = httpHandler(routes.createTransfer, { body: transferBody }, async ({ body, principal, idempotency }) => ({
  status: 201,
  body: await createTransfers(principal, body, Date.now(), idempotency),
}));

ROUTE_DOCS: describeRoute(handler, {
  success: {
    status: 201,
    description: 'The transfer, with the balance it left on each side; for `items`, the transfer of several products with each line a transfer of its own.',
    body: classic.union([transferView, transferBatchView]),
  },
  errors: {
    400: 'Same warehouse on both sides, a quantity that is not positive, a fraction of a product counted in whole units, or an occurredAt in the future.',
    404: "No such product or warehouse in the caller's tenant.",
    409: "Not enough stock in the source warehouse (for `items`, of any one of them, named by its index), or a warehouse's company is BLOCKED or SUSPENDED. Nothing is written.",
  },
  description:
    "Moves `quantity` of a product from `fromWarehouseId` to `toWarehouseId` in one transaction: the source balance goes down and the destination's up, with the value that leaves the source (at its average cost, or at its last cost when the source's company values stock at REPLACEMENT; `costMethod` says which), both warehouses' totals, and two entries in the stock history (TRANSFER_OUT and TRANSFER_IN, each naming the other warehouse). The product's total on hand does not change; an inactive product can be transferred. Warehouses of two companies of the tenant are allowed and both companies are recorded: between two CNPJs a transfer is a fiscal operation, and its invoice is issued outside this service. With an `Idempotency-Key`, a retry records it once. Publishes `stock_transfer.created`.\n\nSeveral products at once: `items` (up to 50, each product once) instead of `productId` and `quantity`, moved all or none. One transaction takes every line out of the source (one line short: 409 naming it, nothing written), then the lines arrive at the destination in transactions of 4, each applied once; the answer comes when all arrived, with each line a transfer of its own (its `batchId` is the answer's `id`, and GET /inventory/transfers lists it). Should the request fail after the units left, they arrive in the background, and a retry with the same `Idempotency-Key` waits for them and answers the same. One `stock_transfer.created` event for the whole (`items`: how many products).",
  notes:
    '201 the transfer with both balances (or, for `items`, every line); 409 not enough stock (nothing written); 400 same warehouse; `Idempotency-Key` makes a retry safe',
  example: {
    body: {
      productId: '1e2f3a4b-5c6d-4e7f-8a9b-0c1d2e3f4a5b',
      fromWarehouseId: '5b0c8f4e-2d1a-4c3b-9e8f-7a6b5c4d3e2f',
      toWarehouseId: '6c1d9a5f-3e2b-4d4c-8f9a-8b7c6d5e4f3a',
      quantity: 12,
      note: 'Reposição da loja',
    },
  },
});
