// Customer edit answers of /v1 from the typed selections of updateCustomer and updateCustomerEmail.
export interface CustomerUpdateSelection {
  name: string;
  email: string;
  phone: string;
  notice: string | null;
}

export const toCustomerUpdate = (r: CustomerUpdateSelection) => ({ name: r.name, email: r.email, phone: r.phone, notice: r.notice });
export const toCustomerEmail = (r: { email: string; notice: string | null }) => ({ email: r.email, notice: r.notice });
