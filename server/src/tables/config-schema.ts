/** The JSON schema of `tables` in `.dynalintrc.json` (read by tables/extract.ts `rcTables`). */
const keyAttr = {
  oneOf: [
    { type: 'string', description: 'The attribute name (type not checked).' },
    {
      type: 'object',
      properties: { name: { type: 'string' }, type: { enum: ['S', 'N', 'B'] } },
      required: ['name'],
      additionalProperties: false,
    },
  ],
};

export const TABLES_SCHEMA = {
  type: 'object',
  description:
    'Tables by name, for tables not defined in the workspace (CloudFormation/SAM, Serverless, CDK, Terraform and CreateTable requests are read by themselves). Requests naming a table get its key schema checked.',
  additionalProperties: {
    type: 'object',
    properties: {
      partitionKey: keyAttr,
      sortKey: keyAttr,
      billingMode: { enum: ['PAY_PER_REQUEST', 'PROVISIONED'] },
      indexes: {
        type: 'object',
        description: 'Secondary indexes by name.',
        additionalProperties: {
          type: 'object',
          properties: { type: { enum: ['global', 'local'] }, partitionKey: keyAttr, sortKey: keyAttr, projection: { enum: ['ALL', 'KEYS_ONLY', 'INCLUDE'] } },
          additionalProperties: false,
        },
      },
    },
    required: ['partitionKey'],
    additionalProperties: false,
  },
};
