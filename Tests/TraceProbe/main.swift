// Placeholder: replaced by the emit-side test helper.
print("trace probe")
