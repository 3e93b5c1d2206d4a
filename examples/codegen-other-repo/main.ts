/**
 * Codegen on someone else's schemas: a small billing API (draft-07, $refs between three files)
 * turned into types and prebuilt validators by `flowspec-codegen`, the same generator as the four
 * specs. See schemas/codegen.json for the roots, and src/generated/ for what it wrote
 * (`npm run codegen` regenerates it; `npm run codegen:check` fails when it is stale).
 */
import { formatIssues, ValidationError } from "@flowspec/runtime";
import { assertCustomer, InvoiceSchema, isInvoiceLine, schemaRoots, validateInvoice, type Invoice } from "./src/generated/index.js";

console.log("generated roots:", schemaRoots.map((root) => root.name).join(", "));

// A typed document: the compiler checks it against the generated Invoice type.
const invoice: Invoice = {
  id: "inv_1001",
  customer: { id: "cus_42", email: "ada@example.com", name: "Ada Lovelace", address: { line1: "12 St James's Square", city: "London", country: "GB" } },
  currency: "GBP",
  lines: [
    { description: "Analytical engine consulting", quantity: 3, unitAmount: 12_500 },
    { description: "Punched cards", quantity: 200, unitAmount: 5 },
  ],
  status: "open",
  dueDate: "2026-12-01",
};
const total = invoice.lines.reduce((sum, line) => sum + line.quantity * line.unitAmount, 0);
console.log(`invoice ${invoice.id}: valid=${validateInvoice(invoice).ok}, total ${(total / 100).toFixed(2)} ${invoice.currency}`);

// Data from outside (parsed JSON) is checked by the prebuilt validator, errors with JSON Pointers.
const fromWire: unknown = JSON.parse(
  '{"id":"inv_1002","customer":{"id":"cus_7","email":"not-an-email","name":"Bob"},"currency":"JPY","lines":[],"status":"sent"}',
);
const result = validateInvoice(fromWire);
console.log(`invoice from the wire: valid=${result.ok}`);
if (!result.ok) console.log(formatIssues(result.errors));

// The same validator as a Standard Schema v1 object, for libraries that accept one.
const standard = await InvoiceSchema["~standard"].validate(invoice);
console.log("InvoiceSchema['~standard'].validate:", "issues" in standard && standard.issues ? `${standard.issues.length} issue(s)` : "no issues");

// A type guard narrows unknown values; assertX throws a ValidationError listing every problem.
const line: unknown = { description: "Tea", quantity: 1, unitAmount: 250 };
if (isInvoiceLine(line)) console.log(`isInvoiceLine: ${line.quantity} x ${line.description}`);
try {
  assertCustomer({ id: "42", email: "ada@example.com", name: "" });
} catch (error) {
  if (!(error instanceof ValidationError)) throw error;
  console.log(`assertCustomer refused a customer with ${error.errors.length} problem(s):\n${formatIssues(error.errors)}`);
}
