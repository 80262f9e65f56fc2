/** The query parameters every list accepts. */
export interface ListInput {
  page?: number;
  limit?: number;
  /** `field` or `-field` (descending), from the resource's sort fields. */
  sort?: string;
  search?: string;
  store_id?: string;
}
