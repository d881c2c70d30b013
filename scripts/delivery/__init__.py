"""What readers get besides the site: the PDF, the offline zip, versioned deploys, the math font."""
